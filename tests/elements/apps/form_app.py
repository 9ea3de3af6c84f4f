#!/usr/bin/python3
"""A small GTK3 form for Zeta's accessibility tests: a Name field, a Subscribe check box, a
Colour combo box and a Save button that writes what the form holds, as JSON, to the file
named by the first argument. Start it with the system Python (python3-gi):
form_app.py OUT.json [TITLE] [TEXT_PX] [framed]."""
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

out_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/zeta-form.json"
title = sys.argv[2] if len(sys.argv) > 2 else "Zeta test form"
# A third argument, a size in pixels, draws all text that small (as dense apps do); a
# fourth, "framed", draws each button as a black outline around a bold label, as old
# toolkits do (Athena's xmessage).
if len(sys.argv) > 3:
    css = Gtk.CssProvider()
    rules = "* { font-size: %spx; }" % int(sys.argv[3])
    if len(sys.argv) > 4 and sys.argv[4] == "framed":
        rules += (
            " button { border: 2px solid black; border-radius: 9px; background: white;"
            " box-shadow: none; padding: 1px 3px; min-height: 0; }"
            " button label { font-family: monospace; font-weight: bold; }"
        )
    css.load_from_data(rules.encode())
    from gi.repository import Gdk  # noqa: E402

    Gtk.StyleContext.add_provider_for_screen(
        Gdk.Screen.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_USER
    )

win = Gtk.Window(title=title)
win.set_default_size(420, 260)
win.move(40, 40)
win.connect("destroy", Gtk.main_quit)

grid = Gtk.Grid(column_spacing=12, row_spacing=12, margin=18)
win.add(grid)

name_label = Gtk.Label(label="Name")
name = Gtk.Entry()
name_label.set_mnemonic_widget(name)
name.get_accessible().set_name("Name")
grid.attach(name_label, 0, 0, 1, 1)
grid.attach(name, 1, 0, 1, 1)

subscribe = Gtk.CheckButton(label="Subscribe")
grid.attach(subscribe, 1, 1, 1, 1)

colour_label = Gtk.Label(label="Colour")
colour = Gtk.ComboBoxText()
for c in ("Red", "Green", "Blue"):
    colour.append_text(c)
colour.set_active(0)
colour.get_accessible().set_name("Colour")
grid.attach(colour_label, 0, 2, 1, 1)
grid.attach(colour, 1, 2, 1, 1)

status = Gtk.Label(label="Not saved")
grid.attach(status, 1, 4, 1, 1)


def save(_button):
    data = {
        "name": name.get_text(),
        "subscribe": subscribe.get_active(),
        "colour": colour.get_active_text(),
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    status.set_text("Saved")


button = Gtk.Button(label="Save")
button.connect("clicked", save)
grid.attach(button, 1, 3, 1, 1)

# Framed, a key with a single mark as its label, as a calculator's keys are.
if len(sys.argv) > 4 and sys.argv[4] == "framed":
    plus = Gtk.Button(label="+")
    plus.connect("clicked", lambda _b: status.set_text("Plus pressed"))
    grid.attach(plus, 0, 3, 1, 1)

win.show_all()
Gtk.main()
