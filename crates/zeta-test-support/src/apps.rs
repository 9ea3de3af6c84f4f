//! Real desktop applications the screen-element tests act on: the GTK3 form of
//! `tests/elements/apps/form_app.py` (run with the system Python, which has python3-gi),
//! started on the test's display, found by its window title, ended by its PID.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The system Python that has GTK (python3-gi); the one first on PATH may not.
pub const SYSTEM_PYTHON: &str = "/usr/bin/python3";

/// The form application's script.
pub fn form_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/elements/apps/form_app.py")
}

/// Why GTK test applications cannot run here, if they cannot.
pub fn missing() -> Option<String> {
    if std::env::var_os("DISPLAY").is_none() {
        return Some("no DISPLAY (run under Xvfb)".into());
    }
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        return Some("no DBus session (run under dbus-run-session)".into());
    }
    let gtk = Command::new(SYSTEM_PYTHON)
        .args([
            "-c",
            "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk",
        ])
        .stderr(Stdio::null())
        .status();
    if !gtk.is_ok_and(|s| s.success()) {
        return Some(format!(
            "{SYSTEM_PYTHON} has no GTK 3 (apt install python3-gi gir1.2-gtk-3.0)"
        ));
    }
    if !Command::new("xdotool")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
    {
        return Some("xdotool is not installed".into());
    }
    None
}

/// A running application, ended by its PID when dropped.
pub struct App {
    pub child: Child,
    pub title: String,
}

impl App {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ends it now (SIGKILL by PID) and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for App {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts the form, writing to `out` when Save is pressed, with window `title`;
/// `accessible: false` starts it with its accessibility bridge off (NO_AT_BRIDGE=1).
/// Waits until its window is mapped.
pub fn start_form(out: &Path, title: &str, accessible: bool) -> Result<App, String> {
    let mut cmd = Command::new(SYSTEM_PYTHON);
    cmd.arg(form_script()).arg(out).arg(title);
    if accessible {
        cmd.env_remove("NO_AT_BRIDGE");
    } else {
        cmd.env("NO_AT_BRIDGE", "1");
    }
    start(cmd, &format!("^{title}$"))
}

/// Starts `cmd` (a desktop application) and waits until a window whose title matches
/// `title` (a regular expression, as xdotool takes it) is mapped.
pub fn start(mut cmd: Command, title: &str) -> Result<App, String> {
    // The pointer away from where windows open, as a person's would be: left over a new
    // window by an earlier test's click, it gives that window the focus (no window
    // manager: focus follows the pointer), and a focused field changes what OCR reads.
    let _ = Command::new("xdotool")
        .args(["mousemove", "1000", "780"])
        .status();
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let app = App {
        child,
        title: title.to_string(),
    };
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        let found = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", title])
            .output();
        if found.is_ok_and(|o| o.status.success() && !o.stdout.is_empty()) {
            // GTK registers on the accessibility bus just after mapping.
            sleep(Duration::from_millis(500));
            return Ok(app);
        }
        sleep(Duration::from_millis(100));
    }
    Err(format!("no window \"{title}\" showed within 20 s"))
}

/// Why OCR cannot run here, if it cannot: the `tesseract` command is missing.
pub fn tesseract_missing() -> Option<String> {
    let ok = Command::new("tesseract")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (!ok).then(|| "tesseract is not installed (apt install tesseract-ocr)".to_string())
}

/// The settings application's script (a notebook, a spin button, a modal dialog, a list of
/// toggles).
pub fn settings_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/elements/apps/settings_app.py")
}

/// The Qt5 form's script (PyQt5): Name, Subscribe, Copies, Save.
pub fn qt_form_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/elements/apps/qt_form.py")
}

/// Starts the GTK 4 form (`tests/elements/apps/gtk4_app.py`: Name, Subscribe, Save),
/// writing to `out` on Save, with window `title`. Waits until its window is mapped.
pub fn start_gtk4_form(out: &Path, title: &str) -> Result<App, String> {
    let mut cmd = Command::new(SYSTEM_PYTHON);
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/elements/apps/gtk4_app.py"))
        .arg(out)
        .arg(title)
        .env_remove("NO_AT_BRIDGE");
    start(cmd, &format!("^{title}$"))
}

/// Starts the settings application, writing to `out` on Apply and OK, with window
/// `title`. Waits until its window is mapped.
pub fn start_settings(out: &Path, title: &str) -> Result<App, String> {
    let mut cmd = Command::new(SYSTEM_PYTHON);
    cmd.arg(settings_script())
        .arg(out)
        .arg(title)
        .env_remove("NO_AT_BRIDGE");
    start(cmd, &format!("^{title}$"))
}

/// Starts the text editor (`tests/elements/apps/editor_app.py`: a File menu with Save,
/// an Edit menu, one text view holding `text`), writing its text to `out` on Save, with
/// window `title`. Waits until its window is mapped.
pub fn start_editor(out: &Path, title: &str, text: &str) -> Result<App, String> {
    let mut cmd = Command::new(SYSTEM_PYTHON);
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/elements/apps/editor_app.py"))
        .arg(out)
        .arg(title)
        .arg(text)
        .env_remove("NO_AT_BRIDGE");
    start(cmd, &format!("^{title}$"))
}

/// Starts the Tk editor (`tests/elements/apps/blank_editor.py`: Quit and Save over an
/// empty text; Tk shares no accessibility tree), writing its text to `out` on Save, with
/// window `title`. Waits until its window is mapped.
pub fn start_blank_editor(out: &Path, title: &str) -> Result<App, String> {
    let mut cmd = Command::new(SYSTEM_PYTHON);
    cmd.arg(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/elements/apps/blank_editor.py"),
    )
    .arg(out)
    .arg(title);
    start(cmd, &format!("^{title}$"))
}
