//! What a call's processes can reach of the person's desktop session and of Zeta itself,
//! whatever the judge saw. Landlock governs file writes only; the other doors are the
//! sockets of programs started outside the confinement, which would do the work for a
//! confined command: the display (X11, Wayland), the session bus and the user's service
//! manager, terminal multiplexers (tmux, screen), agents (ssh, gpg) and editors' servers.
//!
//! A call no person approved runs **closed**: its processes get a mount namespace of
//! their own (in a user namespace, so no privilege is needed) in which those folders are
//! empty and those sockets are `/dev/null`, and a Landlock domain that refuses abstract
//! Unix sockets made outside it (the display's and the bus's other address). A call a
//! person approved (asked, in a plan, or an allowance) runs **open**: it sees the session.
//! Either way Zeta's own secrets file is hidden, and the processes carry a Landlock
//! domain, so they cannot reach around the namespace through another process's
//! `/proc/PID/root` or read Zeta's environment (Landlock refuses ptrace-mode access to
//! processes outside the domain), nor change their mounts.
//!
//! Where the kernel refuses user namespaces (some distributions restrict them), nothing
//! is hidden: `zeta doctor` says so, and the judge's questions for programs that hand
//! work to others remain.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use landlock::{
    AccessFs, CompatLevel, Compatible, PathBeneath, PathFd, RestrictionStatus, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};
use zeta_core::tool::Session;

/// What is hidden from one call's processes, ready to apply in the child.
pub struct Doors {
    /// Folders replaced by an empty one.
    folders: Vec<CString>,
    /// Files and sockets replaced by `/dev/null`.
    files: Vec<CString>,
    uid_map: CString,
    gid_map: CString,
    /// The Landlock domain (`None` where the kernel has no Landlock).
    domain: Option<RulesetCreated>,
}

/// Why the doors could not be prepared; the call does not run.
#[derive(Debug, thiserror::Error)]
#[error("could not close the desktop session to the command ({0})")]
pub struct DoorsError(String);

/// The folders and sockets of the desktop session on this computer, as the environment
/// names them (the folders that exist; sockets outside them listed one by one).
pub fn session_paths() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (uid, _) = ids();
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let tmp = |name: &str| {
        env(name)
            .map(PathBuf::from)
            .unwrap_or_else(|| "/tmp".into())
    };
    let mut folders: Vec<PathBuf> = vec![
        "/tmp/.X11-unix".into(),
        "/tmp/.ICE-unix".into(),
        tmp("TMUX_TMPDIR").join(format!("tmux-{uid}")),
        "/run/screen".into(),
        format!("/tmp/emacs{uid}").into(),
    ];
    folders.extend(env("SCREENDIR").map(PathBuf::from));
    let mut files: Vec<PathBuf> = Vec::new();
    // The runtime folder, hidden whole when it is the person's own (0700, as the XDG
    // specification asks); a shared one (`/tmp`, set by mistake) only by its sockets.
    let runtime = env("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| format!("/run/user/{uid}").into());
    match std::fs::metadata(&runtime) {
        Ok(m) if m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0 => folders.push(runtime),
        Ok(m) if m.is_dir() => files.extend(
            [
                "bus",
                "wayland-0",
                "wayland-1",
                "pipewire-0",
                "pulse/native",
                "systemd/private",
            ]
            .iter()
            .map(|name| runtime.join(name)),
        ),
        _ => {}
    }
    files.extend(env("SSH_AUTH_SOCK").map(PathBuf::from));
    // `TMUX` is "socket,pid,index"; a server started with `-S` lives anywhere.
    if let Some(tmux) = env("TMUX") {
        let tmux = tmux.to_string_lossy().into_owned();
        files.extend(tmux.split(',').next().map(PathBuf::from));
    }
    // The bus's address: `unix:path=/run/user/1000/bus;unix:abstract=…` (an abstract
    // address is refused by the Landlock scope).
    if let Some(bus) = env("DBUS_SESSION_BUS_ADDRESS") {
        for address in bus.to_string_lossy().split(';') {
            for pair in address
                .split_once(':')
                .map_or("", |(_, rest)| rest)
                .split(',')
            {
                if let Some(path) = pair.strip_prefix("path=") {
                    files.push(PathBuf::from(path));
                }
            }
        }
    }
    folders.retain(|p| p.is_dir());
    folders.sort();
    folders.dedup();
    // A folder inside another hidden one is hidden with it (and gone once that is).
    let outer = folders.clone();
    folders.retain(|p| !outer.iter().any(|o| o != p && p.starts_with(o)));
    files.retain(|p| p.exists() && !p.is_dir() && !folders.iter().any(|f| p.starts_with(f)));
    files.sort();
    files.dedup();
    (folders, files)
}

/// This process's effective user and group ids.
fn ids() -> (u32, u32) {
    // SAFETY: neither call can fail or touches memory.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// Zeta's own secrets file, when it exists.
fn secrets_file() -> Option<PathBuf> {
    zeta_protocol::home::ZetaHome::root_from_env()
        .map(|root| root.join(zeta_protocol::home::SECRETS_FILE))
        .filter(|p| p.exists())
}

fn c_path(path: &Path) -> Result<CString, DoorsError> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| DoorsError(format!("{}: a NUL byte in the path", path.display())))
}

/// The Landlock domain every call's processes carry: one that handles making block
/// devices (which needs a privilege these processes lack anyway) and moving files
/// between folders (granted everywhere: Landlock refuses it in any domain that does not
/// grant it), so that the domain exists and brings Landlock's rules on ptrace and
/// mounts; closed, it also scopes abstract Unix sockets to the domain.
fn domain(session: Session) -> Option<RulesetCreated> {
    let ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::MakeBlock | AccessFs::Refer)
        .ok()?;
    let ruleset = match session {
        Session::Closed => ruleset.scope(Scope::AbstractUnixSocket).ok()?,
        Session::Open => ruleset,
    };
    let everywhere = PathFd::new("/").ok()?;
    ruleset
        .create()
        .ok()?
        .add_rule(PathBeneath::new(everywhere, AccessFs::Refer))
        .ok()
}

/// Prepares the doors of one call (in Zeta, before the fork).
pub fn prepare(session: Session) -> Result<Doors, DoorsError> {
    let (mut folders, mut files) = (Vec::new(), Vec::new());
    if namespaces_work() {
        if session == Session::Closed {
            (folders, files) = session_paths();
        }
        files.extend(secrets_file());
    }
    let (uid, gid) = ids();
    let to_c = |paths: &mut Vec<PathBuf>| -> Result<Vec<CString>, DoorsError> {
        paths.iter().map(|p| c_path(p)).collect()
    };
    Ok(Doors {
        folders: to_c(&mut folders)?,
        files: to_c(&mut files)?,
        uid_map: CString::new(format!("{uid} {uid} 1\n")).unwrap_or_default(),
        gid_map: CString::new(format!("{gid} {gid} 1\n")).unwrap_or_default(),
        domain: domain(session),
    })
}

/// Whether this kernel lets a process make a user and mount namespace of its own (asked
/// once: a child that tries).
pub fn namespaces_work() -> bool {
    static WORKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WORKS.get_or_init(|| {
        // SAFETY: fork in a probe: the child makes only the unshare and _exit calls.
        match unsafe { libc::fork() } {
            0 => unsafe {
                let ok = libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) == 0;
                libc::_exit(if ok { 0 } else { 1 })
            },
            pid if pid > 0 => {
                let mut status = 0;
                // SAFETY: waits for the child just forked.
                unsafe { libc::waitpid(pid, &mut status, 0) };
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
            }
            _ => false,
        }
    })
}

/// What `zeta doctor` says about the doors on this computer.
pub fn describe() -> Result<String, String> {
    let scoped = domain(Session::Closed).is_some();
    match (namespaces_work(), scoped) {
        (true, true) => Ok(
            "commands nobody approved cannot reach the display, the session bus, \
                            terminal multiplexers or agents; Zeta's secrets are hidden from all"
                .into(),
        ),
        (false, _) => Err(
            "this kernel refuses user namespaces to Zeta: commands can reach the \
                           display, the session bus and terminal multiplexers (the judge still \
                           asks before the programs that hand work to them)"
                .into(),
        ),
        (true, false) => Err(
            "this kernel has no Landlock: the session's sockets are hidden, \
                              but a command could reach them through another process's /proc \
                              folder"
                .into(),
        ),
    }
}

/// Writes `text` to the file at `path` (in the child: no allocation).
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> bool {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return false;
    }
    let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    libc::close(fd);
    written == bytes.len() as isize
}

/// Makes the command's process close the doors just before it execs, before anything
/// else restricts it (Landlock forbids mounting afterwards). If a step fails, the process
/// does not start.
pub fn apply(command: &mut tokio::process::Command, doors: Doors) {
    let mut doors = Some(doors);
    // SAFETY: runs in the child between fork and exec; it makes only the unshare, open,
    // write, close, mount, prctl and landlock system calls, on strings prepared before
    // the fork, and allocates nothing (the error is built from a raw errno).
    unsafe {
        command.pre_exec(move || {
            let Some(doors) = doors.take() else {
                return Ok(());
            };
            let fail = || Err(std::io::Error::last_os_error());
            let hides = !doors.folders.is_empty() || !doors.files.is_empty();
            if hides {
                if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) != 0 {
                    return fail();
                }
                if !write_file(c"/proc/self/setgroups", b"deny")
                    || !write_file(c"/proc/self/uid_map", doors.uid_map.as_bytes())
                    || !write_file(c"/proc/self/gid_map", doors.gid_map.as_bytes())
                {
                    return fail();
                }
                let none = std::ptr::null::<libc::c_char>();
                if libc::mount(
                    none,
                    c"/".as_ptr(),
                    none,
                    libc::MS_REC | libc::MS_SLAVE,
                    std::ptr::null(),
                ) != 0
                {
                    return fail();
                }
                for folder in &doors.folders {
                    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
                    let options = c"mode=0700,size=4m";
                    if libc::mount(
                        c"tmpfs".as_ptr(),
                        folder.as_ptr(),
                        c"tmpfs".as_ptr(),
                        flags,
                        options.as_ptr().cast(),
                    ) != 0
                    {
                        return fail();
                    }
                }
                for file in &doors.files {
                    if libc::mount(
                        c"/dev/null".as_ptr(),
                        file.as_ptr(),
                        none,
                        libc::MS_BIND,
                        std::ptr::null(),
                    ) != 0
                    {
                        return fail();
                    }
                }
            }
            if let Some(domain) = doors.domain {
                match domain.restrict_self() {
                    Ok(RestrictionStatus {
                        ruleset: RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced,
                        ..
                    }) => {}
                    _ => return Err(std::io::Error::from_raw_os_error(libc::EPERM)),
                }
            }
            Ok(())
        });
    }
}
