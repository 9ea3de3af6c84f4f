//! What a tool's processes may not do to the person's other programs, whatever the
//! judge saw: type into a terminal. Each process a call starts (shell, run_code,
//! open_app) gets a session of its own, so it has no controlling terminal (`/dev/tty`
//! cannot be opened, and the kernel refuses `TIOCSTI` on a terminal that is not the
//! caller's own), and a seccomp filter that refuses `TIOCSTI` (push characters into a
//! terminal's input: the person's shell would run them after Zeta exits) and
//! `TIOCLINUX` (the console's equivalent) on any terminal, which matters where the kernel
//! would allow it anyway (a process with CAP_SYS_ADMIN, as root). The filter is inherited
//! by everything the process starts. A call nobody approved may not leave its session
//! (`setsid` refused), so what it leaves running is found by its session and ended with
//! the task (`session_members`, `end_session`).

use libc::{sock_filter, BPF_ABS, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W};

use crate::seccomp::AUDIT_ARCH;

const TIOCSTI: u32 = 0x5412;
const TIOCLINUX: u32 = 0x541C;

const fn load(k: u32) -> sock_filter {
    sock_filter {
        code: (BPF_LD | BPF_W | BPF_ABS) as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

const fn jump(code: u32, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter {
        code: (BPF_JMP | BPF_K | code) as u16,
        jt,
        jf,
        k,
    }
}

const fn ret(k: u32) -> sock_filter {
    sock_filter {
        code: (BPF_RET | BPF_K) as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

/// The filter: another architecture's calls (a 32-bit program's) fail with ENOSYS, as
/// the undo watch's do; an `ioctl` asking TIOCSTI or TIOCLINUX fails with EPERM; so does
/// `setsid` when `keep_session` (a call nobody approved: what it leaves running stays in
/// its session, where the task finds and ends it).
pub fn program(keep_session: bool) -> Vec<sock_filter> {
    let deny = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
    let enosys = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    // No system call has this number: nothing matches.
    let setsid = if keep_session {
        libc::SYS_setsid as u32
    } else {
        u32::MAX
    };
    vec![
        /* 0 */ load(4),
        /* 1 */ jump(BPF_JEQ, AUDIT_ARCH, 1, 0),
        /* 2 */ ret(enosys),
        /* 3 */ load(0),
        /* 4 */ jump(BPF_JGE, 0x4000_0000, 0, 1),
        /* 5 */ ret(enosys),
        /* 6 */ jump(BPF_JEQ, setsid, 5, 0),
        /* 7 */ jump(BPF_JEQ, libc::SYS_ioctl as u32, 0, 3),
        // The request: argument 1's low 32 bits.
        /* 8 */ load(16 + 8),
        /* 9 */ jump(BPF_JEQ, TIOCSTI, 2, 0),
        /* 10 */ jump(BPF_JEQ, TIOCLINUX, 1, 0),
        /* 11 */ ret(libc::SECCOMP_RET_ALLOW),
        /* 12 */ ret(deny),
    ]
}

/// Makes the command's process start a session of its own and refuse terminal input
/// injection (and, with `keep_session`, leaving that session), just before it execs. If
/// either fails, the process does not start.
pub fn apply(command: &mut tokio::process::Command, keep_session: bool) {
    let program = program(keep_session);
    // SAFETY: runs in the child between fork and exec; it makes only the setsid, prctl
    // and seccomp system calls, on the program cloned before the fork, and allocates
    // nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            crate::seccomp::load(&program, 0)?;
            Ok(())
        });
    }
}

/// The processes still in session `sid` (a call's, whose first process has exited), with
/// their command names; zombies left out.
pub fn session_members(sid: i32) -> Vec<(i32, String)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (name, rest) = stat.rsplit_once(')')?;
            let name = name.split_once('(')?.1.to_string();
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // state, ppid, pgrp, session
            let (state, session) = (*fields.first()?, fields.get(3)?.parse::<i32>().ok()?);
            (session == sid && state != "Z" && state != "X").then_some((pid, name))
        })
        .collect()
}

/// Ends the processes of session `sid`: SIGTERM, then SIGKILL for those still there
/// half a second later.
pub fn end_session(sid: i32) {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let signal_all = |signal| {
        for (pid, _) in session_members(sid) {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    };
    signal_all(Signal::SIGTERM);
    for _ in 0..10 {
        if session_members(sid).is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    signal_all(Signal::SIGKILL);
}
