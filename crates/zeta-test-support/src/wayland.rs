//! A real Wayland session for the tests: sway on its headless back-end (pixman, one
//! 1280x800 output, no XWayland), started like the suite starts Xvfb and ended by its PID.
//! sway will not run as root, so under root it runs as a throwaway system user
//! (`zeta-sway`, made once) in a private runtime folder; the root test processes reach its
//! socket all the same. Applications started on it get `GDK_BACKEND=wayland`, no DISPLAY.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

const USER: &str = "zeta-sway";

/// Why a headless sway cannot run here, if it cannot.
pub fn missing() -> Option<String> {
    let sway = Command::new("sway")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !sway.is_ok_and(|s| s.success()) {
        return Some("sway is not installed (apt install sway)".into());
    }
    let wtype = Command::new("wtype")
        .args(["-s", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if wtype.is_err() {
        return Some("wtype is not installed (apt install wtype)".into());
    }
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        return Some("no DBus session (run under dbus-run-session)".into());
    }
    None
}

/// A running headless sway, ended by its PID when dropped.
pub struct Sway {
    child: Child,
    /// The user sway runs as, when not this process's (under root).
    user: Option<(u32, u32)>,
    runtime: tempfile::TempDir,
    /// The Wayland socket.
    pub socket: PathBuf,
    /// sway's IPC socket.
    pub ipc: PathBuf,
    /// When it was started and when its sockets answered.
    pub took: Duration,
}

impl Sway {
    /// Starts sway with `config` after the output line (bindings, rules); `env` is passed
    /// to it, and so to what its bindings run.
    pub fn start(config: &str, env: &[(&str, &str)]) -> Result<Sway, String> {
        let started = Instant::now();
        let runtime = tempfile::Builder::new()
            .prefix("zeta-wayland-")
            .tempdir()
            .map_err(|e| format!("runtime folder: {e}"))?;
        let user = if is_root() {
            Some(system_user()?)
        } else {
            None
        };
        let config_file = runtime.path().join("sway.conf");
        std::fs::write(
            &config_file,
            format!(
                "output HEADLESS-1 resolution 1280x800 position 0 0\nxwayland disable\n{config}\n"
            ),
        )
        .map_err(|e| format!("sway config: {e}"))?;
        let mut cmd = if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(runtime.path(), Some(uid), Some(gid))
                .and_then(|()| std::os::unix::fs::chown(&config_file, Some(uid), Some(gid)))
                .map_err(|e| format!("giving the runtime folder to {USER}: {e}"))?;
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid",
                &uid.to_string(),
                "--regid",
                &gid.to_string(),
                "--clear-groups",
                "sway",
            ]);
            c
        } else {
            Command::new("sway")
        };
        cmd.arg("-c")
            .arg(&config_file)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", runtime.path())
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env("WLR_BACKENDS", "headless")
            .env("WLR_LIBINPUT_NO_DEVICES", "1")
            .env("WLR_RENDERER", "pixman")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        std::fs::set_permissions(
            runtime.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .map_err(|e| format!("runtime folder mode: {e}"))?;
        let child = cmd.spawn().map_err(|e| format!("cannot start sway: {e}"))?;
        let mut sway = Sway {
            child,
            user,
            socket: PathBuf::new(),
            ipc: PathBuf::new(),
            runtime,
            took: Duration::ZERO,
        };
        while started.elapsed() < Duration::from_secs(15) {
            if let Ok(Some(status)) = sway.child.try_wait() {
                return Err(format!("sway ended at once ({status})"));
            }
            if let (Some(socket), Some(ipc)) = (
                sway.find(|n| n.starts_with("wayland-") && !n.ends_with(".lock")),
                sway.find(|n| n.starts_with("sway-ipc.")),
            ) {
                sway.socket = socket;
                sway.ipc = ipc;
                sway.took = started.elapsed();
                return Ok(sway);
            }
            sleep(Duration::from_millis(50));
        }
        Err("sway's sockets did not appear within 15 s".into())
    }

    fn find(&self, want: impl Fn(&str) -> bool) -> Option<PathBuf> {
        std::fs::read_dir(self.runtime.path())
            .ok()?
            .flatten()
            .find(|e| want(&e.file_name().to_string_lossy()))
            .map(|e| e.path())
    }

    pub fn runtime(&self) -> &Path {
        self.runtime.path()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The environment a program on this session gets: its socket, runtime folder and IPC,
    /// and no X display.
    pub fn env(&self) -> Vec<(&'static str, OsString)> {
        vec![
            ("WAYLAND_DISPLAY", self.socket.clone().into_os_string()),
            ("XDG_RUNTIME_DIR", self.runtime.path().into()),
            ("SWAYSOCK", self.ipc.clone().into_os_string()),
            ("XDG_CURRENT_DESKTOP", "sway".into()),
            ("XDG_SESSION_TYPE", "wayland".into()),
            ("GDK_BACKEND", "wayland".into()),
        ]
    }

    /// `cmd` set to run on this session (the variables above; DISPLAY removed).
    pub fn on<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        cmd.env_remove("DISPLAY").envs(self.env())
    }

    /// `program` to run as the compositor's user (as a person's programs run on their
    /// desktop), with only this session's environment, PATH and `env`.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>, env: &[(&str, &Path)]) -> Command {
        let mut cmd = match self.user {
            Some((uid, gid)) => {
                let mut c = Command::new("setpriv");
                c.args([
                    "--reuid",
                    &uid.to_string(),
                    "--regid",
                    &gid.to_string(),
                    "--clear-groups",
                ])
                .arg(program);
                c
            }
            None => Command::new(program),
        };
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(self.env())
            .envs(env.iter().map(|(k, v)| (*k, v.as_os_str())));
        cmd
    }

    /// Gives `path` (and everything under it) to the compositor's user.
    pub fn give(&self, path: &Path) -> Result<(), String> {
        let Some((uid, gid)) = self.user else {
            return Ok(());
        };
        for entry in walkdir::WalkDir::new(path) {
            let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
            std::os::unix::fs::lchown(entry.path(), Some(uid), Some(gid))
                .map_err(|e| format!("giving {} to {USER}: {e}", entry.path().display()))?;
        }
        Ok(())
    }

    /// A sway command through its IPC, by the `swaymsg` client.
    pub fn msg(&self, args: &[&str]) -> Result<String, String> {
        let out = Command::new("swaymsg")
            .arg("-s")
            .arg(&self.ipc)
            .args(args)
            .output()
            .map_err(|e| format!("swaymsg: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "swaymsg {args:?}: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Waits until a window whose title holds `title` shows.
    pub fn wait_for_window(&self, title: &str, within: Duration) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < within {
            if self
                .msg(&["-t", "get_tree"])
                .is_ok_and(|t| t.contains(&format!("\"name\": \"{title}")))
            {
                return Ok(());
            }
            sleep(Duration::from_millis(100));
        }
        Err(format!(
            "no window \"{title}\" showed on sway within {within:?}"
        ))
    }
}

impl Drop for Sway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// The throwaway system user sway runs as under root, made when missing.
fn system_user() -> Result<(u32, u32), String> {
    let id = |flag: &str| -> Option<u32> {
        let out = Command::new("id").args([flag, USER]).output().ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    };
    if id("-u").is_none() {
        let made = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                USER,
            ])
            .status()
            .map_err(|e| format!("useradd: {e}"))?;
        if !made.success() && id("-u").is_none() {
            return Err(format!("could not make the system user {USER} for sway"));
        }
    }
    match (id("-u"), id("-g")) {
        (Some(u), Some(g)) => Ok((u, g)),
        _ => Err(format!("no uid/gid for {USER}")),
    }
}

/// A headless weston: a Wayland compositor with neither the wlroots screen copy nor the
/// virtual keyboard and pointer, as GNOME's and KDE's are to other programs (they take
/// keys and clicks only through the desktop's portal). Runs as whoever starts it.
pub struct Weston {
    child: Child,
    runtime: tempfile::TempDir,
    pub socket: PathBuf,
}

impl Drop for Weston {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Why a headless weston cannot run here, if it cannot.
pub fn weston_missing() -> Option<String> {
    let found = Command::new("weston")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    (!found.is_ok_and(|s| s.success()))
        .then(|| "weston is not installed (apt install weston)".into())
}

impl Weston {
    pub fn start() -> Result<Weston, String> {
        let runtime = tempfile::Builder::new()
            .prefix("zeta-weston-")
            .tempdir()
            .map_err(|e| format!("runtime folder: {e}"))?;
        std::fs::set_permissions(
            runtime.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .map_err(|e| format!("runtime folder mode: {e}"))?;
        let child = Command::new("weston")
            .args([
                "--backend=headless-backend.so",
                "--socket=wayland-0",
                "--width=1280",
                "--height=800",
                "--idle-time=0",
            ])
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start weston: {e}"))?;
        let socket = runtime.path().join("wayland-0");
        let mut weston = Weston {
            child,
            runtime,
            socket,
        };
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(15) {
            if let Ok(Some(status)) = weston.child.try_wait() {
                return Err(format!("weston ended at once ({status})"));
            }
            if std::os::unix::net::UnixStream::connect(&weston.socket).is_ok() {
                return Ok(weston);
            }
            sleep(Duration::from_millis(50));
        }
        weston.socket = PathBuf::new();
        Err("weston's socket did not answer within 15 s".into())
    }

    /// `cmd` set to run on this compositor, presented as `desktop` (GNOME, KDE).
    pub fn on<'a>(&self, cmd: &'a mut Command, desktop: &str) -> &'a mut Command {
        cmd.env_remove("DISPLAY")
            .env_remove("SWAYSOCK")
            .env("WAYLAND_DISPLAY", &self.socket)
            .env("XDG_RUNTIME_DIR", self.runtime.path())
            .env("XDG_CURRENT_DESKTOP", desktop)
            .env("XDG_SESSION_TYPE", "wayland")
    }
}
