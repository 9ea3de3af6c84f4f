"""A Tk editor for the OCR tests: Tk shares no accessibility tree, so the window is read
by OCR, and its text, empty as it opens, shows no word to read. A row of buttons (Quit,
Save) over one text; Save writes the text to OUT.

usage: blank_editor.py OUT TITLE
"""

import sys
import tkinter as tk

out, title = sys.argv[1], sys.argv[2]
root = tk.Tk()
root.title(title)
root.geometry("520x360+40+40")
bar = tk.Frame(root)
bar.pack(side=tk.TOP, fill=tk.X)
text = tk.Text(root, font=("DejaVu Sans", 14), relief=tk.FLAT, borderwidth=0)


def save():
    with open(out, "w") as f:
        f.write(text.get("1.0", "end-1c"))


tk.Button(bar, text="Quit", command=root.destroy, font=("DejaVu Sans", 14)).pack(side=tk.LEFT, padx=6, pady=6)
tk.Button(bar, text="Save", command=save, font=("DejaVu Sans", 14)).pack(side=tk.LEFT, padx=6, pady=6)
text.pack(side=tk.TOP, fill=tk.BOTH, expand=True, padx=8, pady=8)
root.mainloop()
