#!/usr/bin/python3
"""A small GTK 4 form for Zeta's accessibility tests: a Name field, a Subscribe check box
and a Save button that writes what the form holds, as JSON, to the file named by the
first argument. GTK 4.8 says "showing" of its window alone, and gives its elements'
places inside the window. Start it with the system Python (python3-gi,
gir1.2-gtk-4.0): gtk4_app.py OUT.json [TITLE]."""
import json
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402

out_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/zeta-gtk4.json"
title = sys.argv[2] if len(sys.argv) > 2 else "Zeta gtk4 test"


def activate(app):
    win = Gtk.ApplicationWindow(application=app, title=title)
    win.set_default_size(360, 220)
    grid = Gtk.Grid(column_spacing=12, row_spacing=12)
    for side in ("top", "bottom", "start", "end"):
        getattr(grid, "set_margin_" + side)(18)
    win.set_child(grid)

    grid.attach(Gtk.Label(label="Name"), 0, 0, 1, 1)
    name = Gtk.Entry()
    name.update_property([Gtk.AccessibleProperty.LABEL], ["Name"])
    grid.attach(name, 1, 0, 1, 1)

    subscribe = Gtk.CheckButton(label="Subscribe")
    grid.attach(subscribe, 1, 1, 1, 1)

    status = Gtk.Label(label="Not saved")
    grid.attach(status, 1, 3, 1, 1)

    def save(_button):
        data = {"name": name.get_text(), "subscribe": subscribe.get_active()}
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        status.set_label("Saved")

    button = Gtk.Button(label="Save")
    button.connect("clicked", save)
    grid.attach(button, 1, 2, 1, 1)
    win.present()


app = Gtk.Application(application_id="org.zeta.Gtk4Test")
app.connect("activate", activate)
app.run([])
