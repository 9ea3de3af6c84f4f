//! Computer use on ordinary Debian applications Zeta's tests never use, with the default
//! local model (Qwen2.5-Coder-1.5B through Zeta's own server), under Xvfb with a DBus
//! session and the accessibility bus: each task starts one application the way a person
//! would have it open (with the accessibility environment open_app gives), asks Zeta in
//! plain words, and checks what the application itself produced: what a dialog printed
//! on OK and its exit code (zenity, yad), the file an editor saved (mousepad, featherpad,
//! xedit), or the application's own display read independently (gnome-calculator through
//! its tree by this bench, xcalc by OCR of its window).
//!
//! Per task: solved, seconds, steps (tool calls), **false claims** (the check failed and
//! the answer does not say that something was not done) and false denials (the check
//! passed and the answer says it was not done), by the same admissions list as the
//! everyday bench (a measuring aid, not product code).
//!
//! Applications: zenity and yad (GTK3 dialogs), mousepad (GTK3 editor), featherpad (Qt5
//! editor), gnome-calculator (GTK4), gtk3-widget-factory (GTK3 widget gallery), xedit
//! and xcalc (Athena widgets: no accessibility tree, OCR only).
//! `apt install zenity yad mousepad featherpad gnome-calculator gtk-3-examples x11-apps`.
//!
//! `xvfb-run`-like: `DISPLAY=:N dbus-run-session -- cargo bench --profile dev --bench
//! gui_tasks` (needs `scripts/local-model.sh`); `ZETA_BENCH_TASKS=a,b` runs some only,
//! `ZETA_BENCH_HALF=tuned|held-out` one half (`HELD_OUT` below), `ZETA_BIN` another
//! build of zeta (to compare two side by side).

// Bench code: a failed unwrap or expect is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/claims.rs"]
mod claims;
#[path = "../tests/local_model/support.rs"]
mod support;

use claims::admits;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What the application produced, for the check.
struct Produced {
    /// Its standard output, once it exited (dialogs print their values on OK).
    stdout: String,
    /// Its exit code, if it exited within a moment of the task's end.
    code: Option<i32>,
    /// The user's folder (for saved files).
    work: PathBuf,
    /// Its window's text read independently after the task (tree or OCR).
    shown: String,
}

type Check = fn(&Produced) -> Result<(), String>;

struct Task {
    name: &'static str,
    app: &'static str,
    /// The command, with `{work}` for the user's folder.
    command: &'static [&'static str],
    /// A window title (regular expression) that shows once it is up.
    window: &'static str,
    /// Files to create in the user's folder first.
    files: &'static [(&'static str, &'static str)],
    request: &'static str,
    check: Check,
    /// Read the window's text after the task: by its tree, or by OCR.
    read_after: ReadAfter,
}

#[derive(Clone, Copy, PartialEq)]
enum ReadAfter {
    Nothing,
    Tree,
    Ocr,
}

fn expect(ok: bool, what: String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what)
    }
}

fn printed(p: &Produced, want: &str) -> Result<(), String> {
    expect(
        p.code == Some(0) && p.stdout.trim() == want,
        format!(
            "exit {:?}, printed {:?} (want {want:?})",
            p.code,
            p.stdout.trim()
        ),
    )
}

fn file(p: &Produced, name: &str) -> String {
    std::fs::read_to_string(p.work.join(name)).unwrap_or_default()
}

const TASKS: &[Task] = &[
    Task {
        name: "zenity-entry",
        app: "zenity",
        command: &[
            "zenity",
            "--entry",
            "--title",
            "City",
            "--text",
            "Your city",
        ],
        window: "^City$",
        files: &[],
        request: "Type Lisbon into the City dialog and press OK",
        check: |p| printed(p, "Lisbon"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "zenity-forms",
        app: "zenity",
        command: &[
            "zenity",
            "--forms",
            "--title",
            "Sign up",
            "--text",
            "Sign up",
            "--add-entry",
            "Name",
            "--add-entry",
            "Email",
        ],
        window: "^Sign up$",
        files: &[],
        request:
            "In the Sign up form, fill in the name Ada and the email ada@example.com, then press OK",
        check: |p| printed(p, "Ada|ada@example.com"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "zenity-checklist",
        app: "zenity",
        command: &[
            "zenity",
            "--list",
            "--checklist",
            "--title",
            "Toppings",
            "--column",
            "Pick",
            "--column",
            "Topping",
            "FALSE",
            "Cheese",
            "FALSE",
            "Olives",
            "FALSE",
            "Ham",
        ],
        window: "^Toppings$",
        files: &[],
        request: "In the Toppings list, tick Olives and Ham, then press OK",
        check: |p| printed(p, "Olives|Ham"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "zenity-radiolist",
        app: "zenity",
        command: &[
            "zenity",
            "--list",
            "--radiolist",
            "--title",
            "Size",
            "--column",
            "Pick",
            "--column",
            "Size",
            "FALSE",
            "Small",
            "TRUE",
            "Medium",
            "FALSE",
            "Large",
        ],
        window: "^Size$",
        files: &[],
        request: "Choose Large in the Size dialog and press OK",
        check: |p| printed(p, "Large"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "zenity-scale",
        app: "zenity",
        command: &[
            "zenity",
            "--scale",
            "--title",
            "Volume",
            "--text",
            "Volume",
            "--min-value",
            "0",
            "--max-value",
            "100",
            "--value",
            "20",
        ],
        window: "^Volume$",
        files: &[],
        request: "Set the Volume slider to 65 and press OK",
        check: |p| printed(p, "65"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "zenity-question",
        app: "zenity",
        command: &[
            "zenity",
            "--question",
            "--title",
            "Draft",
            "--text",
            "Delete the draft?",
        ],
        window: "^Draft$",
        files: &[],
        request: "The Draft dialog asks whether to delete the draft: answer No",
        check: |p| expect(p.code == Some(1), format!("exit {:?} (No is 1)", p.code)),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "zenity-password",
        app: "zenity",
        command: &["zenity", "--password", "--title", "Unlock"],
        window: "^Unlock$",
        files: &[],
        request: "Type the password hunter2 into the Unlock dialog and confirm it",
        check: |p| printed(p, "hunter2"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "yad-print",
        app: "yad",
        command: &[
            "yad",
            "--form",
            "--title",
            "Print",
            "--field",
            "Copies:NUM",
            "1!1..20!1",
            "--field",
            "Duplex:CHK",
            "FALSE",
        ],
        window: "^Print$",
        files: &[],
        request: "In the Print dialog, set Copies to 3, tick Duplex, and press OK",
        check: |p| printed(p, "3|TRUE|"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "yad-colour",
        app: "yad",
        command: &[
            "yad",
            "--form",
            "--title",
            "Theme",
            "--field",
            "Colour:CB",
            "Red!Green!Blue",
        ],
        window: "^Theme$",
        files: &[],
        request: "Pick Blue as the colour in the Theme dialog, then press OK",
        check: |p| printed(p, "Blue|"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "yad-entry",
        app: "yad",
        command: &["yad", "--entry", "--title", "Code", "--text", "Room code"],
        window: "^Code$",
        files: &[],
        request: "Enter 4217 as the room code in the Code dialog and press OK",
        check: |p| printed(p, "4217"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "mousepad-append",
        app: "mousepad",
        command: &["mousepad", "{work}/todo.txt"],
        window: "todo.txt",
        files: &[("todo.txt", "milk\n")],
        request:
            "In the Mousepad window, add a line with the word eggs after milk, and save the file",
        check: |p| {
            let t = file(p, "todo.txt");
            expect(
                t.lines().map(str::trim).collect::<Vec<_>>() == ["milk", "eggs"],
                format!("todo.txt holds {t:?}"),
            )
        },
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "mousepad-replace",
        app: "mousepad",
        command: &["mousepad", "{work}/status.txt"],
        window: "status.txt",
        files: &[("status.txt", "draft\n")],
        request: "Change the text in the Mousepad window from draft to final, then save it",
        check: |p| {
            let t = file(p, "status.txt");
            expect(t.trim() == "final", format!("status.txt holds {t:?}"))
        },
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "featherpad-append",
        app: "featherpad",
        command: &["featherpad", "{work}/list.txt"],
        window: "list.txt",
        files: &[("list.txt", "apples\n")],
        request: "In FeatherPad, add the line pears after apples and save the file",
        check: |p| {
            let t = file(p, "list.txt");
            expect(
                t.lines().map(str::trim).collect::<Vec<_>>() == ["apples", "pears"],
                format!("list.txt holds {t:?}"),
            )
        },
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "featherpad-replace",
        app: "featherpad",
        command: &["featherpad", "{work}/mode.txt"],
        window: "mode.txt",
        files: &[("mode.txt", "off\n")],
        request: "Make the FeatherPad document say on instead of off, and save it",
        check: |p| {
            let t = file(p, "mode.txt");
            expect(t.trim() == "on", format!("mode.txt holds {t:?}"))
        },
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "calculator-multiply",
        app: "gnome-calculator",
        command: &["gnome-calculator"],
        window: "Calculator",
        files: &[],
        request: "Use the Calculator window to work out 12 times 7",
        check: |p| {
            expect(
                shows_number(&p.shown, "84"),
                format!("the display shows {:?}", p.shown),
            )
        },
        read_after: ReadAfter::Tree,
    },
    Task {
        name: "calculator-subtract",
        app: "gnome-calculator",
        command: &["gnome-calculator"],
        window: "Calculator",
        files: &[],
        request: "With the Calculator app, compute 100 minus 58",
        check: |p| {
            expect(
                shows_number(&p.shown, "42"),
                format!("the display shows {:?}", p.shown),
            )
        },
        read_after: ReadAfter::Tree,
    },
    Task {
        name: "widget-factory-type",
        app: "gtk3-widget-factory",
        command: &["gtk3-widget-factory"],
        window: "^gtk3-widget-factory$",
        files: &[],
        request: "In the gtk3-widget-factory window, type hello into the first text field",
        check: |p| {
            expect(
                p.shown.contains("hello"),
                format!("the window shows {:?}", clip(&p.shown)),
            )
        },
        read_after: ReadAfter::Tree,
    },
    Task {
        name: "xedit-type",
        app: "xedit",
        command: &["xedit", "{work}/memo.txt"],
        window: "^xedit$",
        files: &[("memo.txt", "")],
        request: "In the xedit window, type call Bob into the text and press its Save button",
        check: |p| {
            let t = file(p, "memo.txt");
            expect(t.contains("call Bob"), format!("memo.txt holds {t:?}"))
        },
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "xcalc-add",
        app: "xcalc",
        command: &["xcalc"],
        window: "^Calculator$",
        files: &[],
        request: "Add 6 and 7 on the xcalc calculator",
        check: |p| {
            expect(
                shows_number(&p.shown, "13"),
                format!("the display shows {:?}", clip(&p.shown)),
            )
        },
        read_after: ReadAfter::Ocr,
    },
    Task {
        name: "xcalc-multiply",
        app: "xcalc",
        command: &["xcalc"],
        window: "^Calculator$",
        files: &[],
        request: "Multiply 9 by 5 using the xcalc calculator",
        check: |p| {
            expect(
                shows_number(&p.shown, "45"),
                format!("the display shows {:?}", clip(&p.shown)),
            )
        },
        read_after: ReadAfter::Ocr,
    },
];

fn exited(p: &Produced, want: i32) -> Result<(), String> {
    expect(
        p.code == Some(want),
        format!("exit {:?} (want {want})", p.code),
    )
}

/// Tasks written after the product's help for windows, on applications and dialogs none
/// of it was tried on, and never read while changing it: the held-out half. kdialog (Qt5
/// dialogs), gxmessage (GTK3 message buttons), xmessage (Athena: no tree), l3afpad (GTK3
/// editor) and mate-calc (GTK3 calculator).
/// `apt install kdialog gxmessage x11-utils l3afpad mate-calc`.
const HELD_OUT: &[Task] = &[
    Task {
        name: "kdialog-input",
        app: "kdialog",
        command: &["kdialog", "--title", "Pet", "--inputbox", "Your pet's name"],
        window: "^Pet",
        files: &[],
        request: "Type Rex into the Pet dialog and press OK",
        check: |p| printed(p, "Rex"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "kdialog-yesno",
        app: "kdialog",
        command: &[
            "kdialog",
            "--title",
            "Backup",
            "--yesno",
            "Start the backup now?",
        ],
        window: "^Backup",
        files: &[],
        request: "The Backup dialog asks whether to start the backup now: answer No",
        check: |p| exited(p, 1),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "kdialog-combo",
        app: "kdialog",
        command: &[
            "kdialog",
            "--title",
            "Fruit",
            "--combobox",
            "Pick a fruit",
            "Apple",
            "Banana",
            "Cherry",
        ],
        window: "^Fruit",
        files: &[],
        request: "Pick Cherry in the Fruit dialog and press OK",
        check: |p| printed(p, "Cherry"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "kdialog-password",
        app: "kdialog",
        command: &[
            "kdialog",
            "--title",
            "Vault",
            "--password",
            "Vault password",
        ],
        window: "^Vault",
        files: &[],
        request: "Enter the password opensesame in the Vault dialog and confirm it",
        check: |p| printed(p, "opensesame"),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "gxmessage-choose",
        app: "gxmessage",
        command: &[
            "gxmessage",
            "-title",
            "Update",
            "-buttons",
            "Later:2,Install:3",
            "An update is ready",
        ],
        window: "^Update$",
        files: &[],
        request: "In the Update window, choose Install",
        check: |p| exited(p, 3),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "xmessage-dismiss",
        app: "xmessage",
        command: &[
            "xmessage",
            "-title",
            "Reminder",
            "-buttons",
            "Snooze:4,Dismiss:5",
            "Meeting at 3",
        ],
        window: "^Reminder$",
        files: &[],
        request: "Press Dismiss in the Reminder message",
        check: |p| exited(p, 5),
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "l3afpad-replace",
        app: "l3afpad",
        command: &["l3afpad", "{work}/notes.txt"],
        window: "notes.txt",
        files: &[("notes.txt", "colour: red\n")],
        request: "In the notes.txt window, change red to green and save the file",
        check: |p| {
            let t = file(p, "notes.txt");
            expect(
                t.trim() == "colour: green",
                format!("notes.txt holds {t:?}"),
            )
        },
        read_after: ReadAfter::Nothing,
    },
    Task {
        name: "mate-calc-multiply",
        app: "mate-calc",
        command: &["mate-calc"],
        window: "^Calculator$",
        files: &[],
        request: "Use the MATE calculator to work out 23 times 4",
        check: |p| {
            expect(
                shows_number(&p.shown, "92"),
                format!("the display shows {:?}", clip(&p.shown)),
            )
        },
        read_after: ReadAfter::Tree,
    },
];

/// `shown` holds `number` whole, no digit beside it: a display showing 7042 is not one
/// showing 42 ("100 minus 58" keyed after a stray 7).
fn shows_number(shown: &str, number: &str) -> bool {
    shown.match_indices(number).any(|(at, _)| {
        let before = shown[..at].chars().next_back();
        let after = shown[at + number.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

fn clip(s: &str) -> String {
    s.replace('\n', " ").chars().take(160).collect()
}

/// Starts the task's application with the environment open_app gives, waits for its
/// window.
fn start(task: &Task, work: &Path) -> Option<Child> {
    let args: Vec<String> = task
        .command
        .iter()
        .map(|a| a.replace("{work}", &work.display().to_string()))
        .collect();
    let mut cmd = Command::new(&args[0]);
    cmd.args(&args[1..])
        .env("HOME", work)
        .env_remove("NO_AT_BRIDGE")
        .env("GNOME_ACCESSIBILITY", "1")
        .env("QT_ACCESSIBILITY", "1")
        .env("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let _ = Command::new("xdotool")
        .args(["mousemove", "1000", "780"])
        .status();
    let child = cmd.spawn().ok()?;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        let found = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", task.window])
            .output();
        if found.is_ok_and(|o| o.status.success() && !o.stdout.is_empty()) {
            std::thread::sleep(Duration::from_millis(800));
            return Some(child);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(child)
}

/// The window's text after the task, read by this bench (not by Zeta): the accessibility
/// tree through python3-gi's Atspi, or OCR of the window's rectangle.
fn read_window(task: &Task) -> String {
    match task.read_after {
        ReadAfter::Nothing => String::new(),
        ReadAfter::Tree => {
            let script = format!(
                "import gi, re\ngi.require_version('Atspi', '2.0')\nfrom gi.repository import Atspi\n\
d = Atspi.get_desktop(0)\nout = []\n\
def walk(a, depth):\n    if depth > 30: return\n    try:\n        n = a.get_name() or ''\n        out.append(n)\n        t = a.get_text_iface()\n        if t: out.append(t.get_text(0, min(t.get_character_count(), 400)))\n        for i in range(a.get_child_count()): walk(a.get_child_at_index(i), depth + 1)\n    except Exception: pass\n\
for i in range(d.get_child_count()):\n    app = d.get_child_at_index(i)\n    for j in range(app.get_child_count()):\n        w = app.get_child_at_index(j)\n        if re.search({:?}, w.get_name() or '') or re.search({:?}, app.get_name() or ''): walk(w, 0)\n\
print('\\n'.join(x for x in out if x))\n",
                task.window, task.window
            );
            Command::new("/usr/bin/python3")
                .args(["-c", &script])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
                .unwrap_or_default()
        }
        ReadAfter::Ocr => {
            let id = Command::new("xdotool")
                .args(["search", "--onlyvisible", "--name", task.window])
                .output()
                .map(|o| {
                    String::from_utf8_lossy(&o.stdout)
                        .lines()
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .unwrap_or_default();
            let shot = std::env::temp_dir().join("zeta-gui-bench.png");
            let big = std::env::temp_dir().join("zeta-gui-bench-3x.png");
            let _ = Command::new("import")
                .args(["-window", &id])
                .arg(&shot)
                .status();
            let _ = Command::new("convert")
                .arg(&shot)
                .args(["-resize", "300%"])
                .arg(&big)
                .status();
            Command::new("tesseract")
                .arg(&big)
                .arg("stdout")
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
                .unwrap_or_default()
        }
    }
}

fn main() {
    if std::env::var_os("DISPLAY").is_none()
        || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none()
    {
        println!("SKIPPED: needs an X display and a DBus session (see the header)");
        return;
    }
    let Some(local) = support::available() else {
        return;
    };
    let only: Option<Vec<String>> = std::env::var("ZETA_BENCH_TASKS")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    // `ZETA_BENCH_HALF`: `tuned` (the tasks read while building the help), `held-out`
    // (never read), or both (the default).
    let half = std::env::var("ZETA_BENCH_HALF").unwrap_or_default();
    let tasks: Vec<&Task> = match half.as_str() {
        "tuned" => TASKS.iter().collect(),
        "held-out" => HELD_OUT.iter().collect(),
        _ => TASKS.iter().chain(HELD_OUT).collect(),
    };
    let mut rows = Vec::new();
    for task in tasks {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|n| n == task.name))
        {
            continue;
        }
        let program = task.command[0];
        if !Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            println!("{:<22} SKIPPED: {program} is not installed", task.name);
            continue;
        }
        let (dir, work) = support::home(&local);
        for (name, text) in task.files {
            std::fs::write(work.join(name), text).expect("fixture");
        }
        let Some(mut app) = start(task, &work) else {
            println!("{:<22} SKIPPED: {program} did not start", task.name);
            continue;
        };
        let o = support::run(dir.path(), &work, &local, task.request, |_| {});
        let steps = o.calls.iter().filter(|c| !c.starts_with("  ->")).count();
        std::thread::sleep(Duration::from_millis(500));
        let shown = read_window(task);
        // A dialog that was answered has exited; anything still running is ended by PID.
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut code = None;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = app.try_wait() {
                code = status.code();
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        if code.is_none() {
            let _ = app.kill();
            let _ = app.wait();
        }
        let mut stdout = String::new();
        if let Some(mut out) = app.stdout.take() {
            let _ = out.read_to_string(&mut stdout);
        }
        let produced = Produced {
            stdout,
            code,
            work: work.clone(),
            shown,
        };
        let verdict = (task.check)(&produced);
        let solved = verdict.is_ok();
        let false_claim = !solved && !admits(&o.reply);
        // The other way to be wrong: done, and said not done.
        let false_denial = solved && admits(&o.reply);
        println!(
            "{:<22} {:<18} {:<4} {:>6.1} s {:>2} steps{}  reply: {}{}",
            task.name,
            task.app,
            if solved { "PASS" } else { "FAIL" },
            o.took.as_secs_f64(),
            steps,
            if false_claim {
                " FALSE CLAIM"
            } else if false_denial {
                " FALSE DENIAL"
            } else {
                ""
            },
            clip(&o.reply),
            verdict
                .err()
                .map(|e| format!("  [{e}]"))
                .unwrap_or_default()
        );
        if std::env::var_os("ZETA_BENCH_SHOW").is_some() {
            for c in &o.calls {
                println!("    {}", clip(c));
            }
        }
        rows.push(Row {
            app: task.app,
            held_out: HELD_OUT.iter().any(|h| h.name == task.name),
            solved,
            false_claim,
            secs: o.took.as_secs_f64(),
            steps,
            false_denial,
        });
        drop(dir);
    }
    for (label, held_out) in [("tuned", false), ("held-out", true)] {
        let half: Vec<&Row> = rows.iter().filter(|r| r.held_out == held_out).collect();
        summary(label, &half);
    }
}

/// One task's outcome.
struct Row {
    app: &'static str,
    held_out: bool,
    solved: bool,
    false_claim: bool,
    secs: f64,
    steps: usize,
    false_denial: bool,
}

fn summary(label: &str, rows: &[&Row]) {
    if rows.is_empty() {
        return;
    }
    let solved = rows.iter().filter(|r| r.solved).count();
    let claims = rows.iter().filter(|r| r.false_claim).count();
    let denials = rows.iter().filter(|r| r.false_denial).count();
    let mut secs: Vec<f64> = rows.iter().map(|r| r.secs).collect();
    secs.sort_by(f64::total_cmp);
    let mut steps: Vec<usize> = rows.iter().map(|r| r.steps).collect();
    steps.sort_unstable();
    let mut apps: Vec<&str> = rows.iter().map(|r| r.app).collect();
    apps.sort_unstable();
    apps.dedup();
    println!(
        "\n{label}: {solved}/{} solved across {} applications, {claims} false claims, {denials} false denials, median {:.1} s and {} steps per task",
        rows.len(),
        apps.len(),
        secs[secs.len() / 2],
        steps[steps.len() / 2]
    );
}
