#!/usr/bin/python3
"""A GTK3 settings window for Zeta's accessibility tests, built from the widget classes
ordinary settings dialogs use and the outline must carry through:

- a notebook with two pages, "General" (a Copies spin button and a Title entry) and
  "Advanced" (a Verbose check box and a plug-in list whose Enabled cells are toggles);
- a "Set label…" button that opens a modal dialog with gtk_dialog_run (the call does not
  return until the dialog closes), holding an entry with "Label:" beside it (no name of
  its own), a Volume slider (0–100) and
  OK / Cancel;
- Apply, which writes the settings as the widgets hold them (the spin button's committed
  value, not its text), as JSON, to the file named by the first argument, and OK, which
  does the same and closes the window.

Start it with the system Python (python3-gi): settings_app.py OUT.json [TITLE]."""
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

out_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/zeta-settings.json"
title = sys.argv[2] if len(sys.argv) > 2 else "Zeta settings test"
state = {"label": "", "volume": 50}

win = Gtk.Window(title=title)
win.set_default_size(520, 380)
win.move(60, 60)
win.connect("destroy", Gtk.main_quit)

box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=10, margin=14)
win.add(box)
notebook = Gtk.Notebook()
box.pack_start(notebook, True, True, 0)

general = Gtk.Grid(column_spacing=12, row_spacing=12, margin=12)
copies_label = Gtk.Label(label="Copies")
copies = Gtk.SpinButton.new_with_range(1, 99, 1)
copies.set_value(1)
copies_label.set_mnemonic_widget(copies)
copies.get_accessible().set_name("Copies")
general.attach(copies_label, 0, 0, 1, 1)
general.attach(copies, 1, 0, 1, 1)
title_label = Gtk.Label(label="Title")
title_entry = Gtk.Entry()
title_label.set_mnemonic_widget(title_entry)
title_entry.get_accessible().set_name("Title")
general.attach(title_label, 0, 1, 1, 1)
general.attach(title_entry, 1, 1, 1, 1)
notebook.append_page(general, Gtk.Label(label="General"))

advanced = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin=12)
verbose = Gtk.CheckButton(label="Verbose")
advanced.pack_start(verbose, False, False, 0)
plugins = Gtk.ListStore(bool, str)
for name in ("Alpha", "Beta", "Gamma"):
    plugins.append([False, name])
view = Gtk.TreeView(model=plugins)
view.get_accessible().set_name("Plug-ins")
toggle = Gtk.CellRendererToggle()
toggle.set_activatable(True)


def toggled(_renderer, path):
    plugins[path][0] = not plugins[path][0]


toggle.connect("toggled", toggled)
view.append_column(Gtk.TreeViewColumn("Enabled", toggle, active=0))
view.append_column(Gtk.TreeViewColumn("Plug-in", Gtk.CellRendererText(), text=1))
advanced.pack_start(view, True, True, 0)
notebook.append_page(advanced, Gtk.Label(label="Advanced"))

shown_label = Gtk.Label(label="Label: (none)")
box.pack_start(shown_label, False, False, 0)


def ask_label(_button):
    dialog = Gtk.Dialog(title="Set label", transient_for=win, modal=True)
    dialog.add_buttons("Cancel", Gtk.ResponseType.CANCEL, "OK", Gtk.ResponseType.OK)
    dialog.set_default_response(Gtk.ResponseType.OK)
    # The entry has no name of its own, as in a form built of a label and an entry side
    # by side (zenity --forms): Zeta names it by the label a person reads beside it.
    row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=12)
    row.pack_start(Gtk.Label(label="Label:"), False, False, 6)
    entry = Gtk.Entry()
    row.pack_start(entry, True, True, 6)
    dialog.get_content_area().pack_start(row, False, False, 6)
    volume = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1)
    volume.set_value(state["volume"])
    volume.get_accessible().set_name("Volume")
    dialog.get_content_area().pack_start(volume, False, False, 6)
    dialog.show_all()
    if dialog.run() == Gtk.ResponseType.OK:
        state["label"] = entry.get_text()
        state["volume"] = int(volume.get_value())
        shown_label.set_text("Label: " + state["label"])
    dialog.destroy()


def write():
    data = {
        "copies": copies.get_value_as_int(),
        "volume": state["volume"],
        "title": title_entry.get_text(),
        "verbose": verbose.get_active(),
        "plugins": [row[1] for row in plugins if row[0]],
        "label": state["label"],
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(data, f)


buttons = Gtk.Box(spacing=8)
set_label = Gtk.Button(label="Set label…")
set_label.connect("clicked", ask_label)
apply = Gtk.Button(label="Apply")
apply.connect("clicked", lambda _b: write())
ok = Gtk.Button(label="OK")
ok.connect("clicked", lambda _b: (write(), win.destroy()))
buttons.pack_start(set_label, False, False, 0)
buttons.pack_end(ok, False, False, 0)
buttons.pack_end(apply, False, False, 0)
box.pack_start(buttons, False, False, 0)

win.show_all()
Gtk.main()
