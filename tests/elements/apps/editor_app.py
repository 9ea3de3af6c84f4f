"""A small GTK 3 text editor for the element tests: a menu bar (File: New, Open…, Save,
Quit; Edit: Undo, Copy) over one text view. Save writes the text to the file named first.

usage: editor_app.py OUT TITLE TEXT
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

out, title, text = sys.argv[1], sys.argv[2], sys.argv[3]
buffer = Gtk.TextBuffer()
buffer.set_text(text)


def save(_item):
    start, end = buffer.get_bounds()
    with open(out, "w") as f:
        f.write(buffer.get_text(start, end, False))


window = Gtk.Window(title=title)
window.set_default_size(420, 300)
window.connect("destroy", Gtk.main_quit)
bar = Gtk.MenuBar()
for name, items in [
    ("_File", [("_New", None), ("_Open…", None), ("_Save", save), ("_Quit", lambda _: Gtk.main_quit())]),
    ("_Edit", [("_Undo", None), ("_Copy", None)]),
]:
    top = Gtk.MenuItem.new_with_mnemonic(name)
    menu = Gtk.Menu()
    for label, handler in items:
        item = Gtk.MenuItem.new_with_mnemonic(label)
        if handler:
            item.connect("activate", handler)
        menu.append(item)
    top.set_submenu(menu)
    bar.append(top)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
box.pack_start(bar, False, False, 0)
box.pack_start(Gtk.TextView(buffer=buffer), True, True, 0)
window.add(box)
window.show_all()
Gtk.main()
