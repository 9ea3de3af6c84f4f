#!/usr/bin/python3
"""A small Qt5 (PyQt5) form for Zeta's accessibility tests: a Name field, a Subscribe check
box, a Copies spin box, a Save button that writes what the form holds, as JSON, to the
file named by the first argument, a status label and a Size combo box (Small, Medium,
Large). Qt joins the accessibility bus only when asked
(QT_ACCESSIBILITY=1, QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1): Zeta sets those for the apps it
starts. Start it with the system Python (python3-pyqt5): qt_form.py OUT.json [TITLE]."""
import json
import sys

from PyQt5 import QtWidgets

out_path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/zeta-qt-form.json"
title = sys.argv[2] if len(sys.argv) > 2 else "Zeta Qt form"

app = QtWidgets.QApplication(sys.argv[:1])
win = QtWidgets.QWidget()
win.setWindowTitle(title)
win.move(80, 80)
win.resize(420, 290)
layout = QtWidgets.QFormLayout(win)
name = QtWidgets.QLineEdit()
name.setAccessibleName("Name")
layout.addRow("Name", name)
subscribe = QtWidgets.QCheckBox("Subscribe")
layout.addRow("", subscribe)
copies = QtWidgets.QSpinBox()
copies.setRange(1, 99)
copies.setAccessibleName("Copies")
layout.addRow("Copies", copies)
status = QtWidgets.QLabel("Not saved")


def save():
    data = {
        "name": name.text(),
        "subscribe": subscribe.isChecked(),
        "copies": copies.value(),
        "size": size.currentText(),
    }
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    status.setText("Saved")


button = QtWidgets.QPushButton("Save")
button.clicked.connect(save)
layout.addRow("", button)
layout.addRow("", status)
# After the others, so their numbers stay as they were.
size = QtWidgets.QComboBox()
size.addItems(["Small", "Medium", "Large"])
size.setAccessibleName("Size")
layout.addRow("Size", size)
win.show()
sys.exit(app.exec_())
