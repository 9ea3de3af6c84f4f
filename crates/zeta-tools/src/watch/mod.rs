//! Watching what a call's processes change on disk, for undo (zeta-core's `undo`, where
//! the mechanism is explained). The process a call starts installs the seccomp filter of
//! `filter.rs` between fork and exec, with a listener descriptor it hands back to Zeta
//! over a socket pair; a thread of Zeta's (the supervisor) receives each stopped call,
//! reads it (`decode.rs`), tells the keeper, and lets the call go on. Once the call has
//! ended the supervisor stops telling the keeper and lets every call through at once,
//! until the last watched process (a program left running in the background) exits.

mod decode;
mod filter;

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::{Arc, Mutex};

use zeta_core::undo::Keeper;

/// Why a call's processes could not be watched.
#[derive(Debug, thiserror::Error)]
#[error("could not watch the call's file changes for undo: {0}")]
pub struct WatchError(String);

/// Set up in Zeta before the fork: the filter and the socket pair.
pub struct Prepared {
    program: Vec<libc::sock_filter>,
    ours: OwnedFd,
    theirs: OwnedFd,
}

/// The keeper while the call runs; `None` after it.
type Slot = Arc<Mutex<Option<Arc<dyn Keeper>>>>;

/// A watch on one call's processes: dropping it (the call ended) stops the keeping. A
/// long-lived process (an MCP server) is watched across calls: each call sets the
/// keeper for its time (`keep`), and between calls nothing is kept.
pub struct Watch {
    slot: Slot,
}

impl Watch {
    /// Who is told of the watched processes' changes from now on (`None`: nobody).
    pub fn keep(&self, keeper: Option<Arc<dyn Keeper>>) {
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = keeper;
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

pub fn prepare() -> Result<Prepared, WatchError> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: socketpair writes two descriptors into `fds`.
    let rc = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if rc != 0 {
        return Err(WatchError(format!(
            "socketpair: {}",
            std::io::Error::last_os_error()
        )));
    }
    // SAFETY: both descriptors were just made and are owned here alone.
    let (ours, theirs) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    Ok(Prepared {
        program: filter::program(),
        ours,
        theirs,
    })
}

/// Whether this kernel lets Zeta watch what a call changes: a `true` started watched.
pub fn support() -> Result<(), WatchError> {
    let prepared = prepare()?;
    let mut command = tokio::process::Command::new("true");
    install(&mut command, &prepared);
    let mut child = command
        .as_std_mut()
        .spawn()
        .map_err(|e| WatchError(format!("the kernel refused the filter ({e})")))?;
    drop(prepared.theirs);
    let received = receive(&prepared.ours);
    let _ = child.wait();
    received.map(|_| ())
}

/// Installs the filter in the child (between fork and exec) and sends the listener back.
pub fn install(command: &mut tokio::process::Command, prepared: &Prepared) {
    // Cloned here, before the fork; the child only reads it.
    let program = prepared.program.clone();
    let theirs = prepared.theirs.as_raw_fd();
    // SAFETY: runs in the child between fork and exec; it makes only system calls
    // (prctl, seccomp, sendmsg, close) on memory prepared before the fork (the program)
    // or on its own stack, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let listener = crate::seccomp::load(&program, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER)?;
            let listener = listener as RawFd;
            // One byte, with the listener as SCM_RIGHTS.
            let mut byte = [0u8; 1];
            let mut iov = libc::iovec {
                iov_base: byte.as_mut_ptr().cast(),
                iov_len: 1,
            };
            let mut control = [0u64; 8];
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) as _;
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
            std::ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>(), listener);
            let sent = libc::sendmsg(theirs, &msg, 0);
            libc::close(listener);
            if sent != 1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// After the spawn: takes the listener the child sent and starts the supervisor.
pub fn start(prepared: Prepared, keeper: Arc<dyn Keeper>) -> Result<Watch, WatchError> {
    start_keeping(prepared, Some(keeper))
}

/// `start`, with `keeper` told first (`None`: nobody until `Watch::keep`).
pub fn start_keeping(
    prepared: Prepared,
    keeper: Option<Arc<dyn Keeper>>,
) -> Result<Watch, WatchError> {
    drop(prepared.theirs);
    let listener = receive(&prepared.ours)?;
    let slot: Slot = Arc::new(Mutex::new(keeper));
    let supervised = slot.clone();
    std::thread::Builder::new()
        .name("zeta-undo-watch".into())
        .spawn(move || supervise(listener, supervised))
        .map_err(|e| WatchError(format!("supervisor thread: {e}")))?;
    Ok(Watch { slot })
}

fn receive(socket: &OwnedFd) -> Result<OwnedFd, WatchError> {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut control = [0u64; 8];
    // SAFETY: a zeroed msghdr pointing at our own buffers; recvmsg fills them.
    let fd = unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of_val(&control) as _;
        let n = libc::recvmsg(
            socket.as_raw_fd(),
            &mut msg,
            libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC,
        );
        if n != 1 {
            return Err(WatchError(format!(
                "the started process sent no listener ({})",
                std::io::Error::last_os_error()
            )));
        }
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        if cmsg.is_null() || (*cmsg).cmsg_type != libc::SCM_RIGHTS {
            return Err(WatchError("the started process sent no listener".into()));
        }
        std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>())
    };
    // SAFETY: the descriptor arrived with SCM_RIGHTS and is ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Receives stopped calls until no watched process is left.
fn supervise(listener: OwnedFd, slot: Slot) {
    let fd = listener.as_raw_fd();
    loop {
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd of ours.
        let ready = unsafe { libc::poll(&mut poll, 1, -1) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        if poll.revents & libc::POLLIN == 0 {
            // POLLHUP: every watched process has exited.
            return;
        }
        // SAFETY: a zeroed seccomp_notif (the kernel requires zeroes) for RECV to fill.
        let mut notif: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: the ioctl fills `notif`.
        if unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_RECV as _, &mut notif) } != 0 {
            // The process was killed while stopped (ENOENT), or a signal: go on.
            continue;
        }
        let keeper = slot.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(keeper) = keeper {
            let call = decode::Call {
                pid: notif.pid,
                nr: i64::from(notif.data.nr),
                args: notif.data.args,
            };
            let mut id = notif.id;
            // SAFETY: ID_VALID reads the id: is the process still stopped in this call
            // (so the paths read were its)?
            let valid =
                unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_ID_VALID as _, &mut id) } == 0;
            if valid {
                if let Some(touch) = call.touch() {
                    keeper.before(&touch);
                }
            }
        }
        let mut resp = libc::seccomp_notif_resp {
            id: notif.id,
            val: 0,
            error: 0,
            flags: libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
        };
        // SAFETY: the response for the call just received; a process gone meanwhile
        // makes this fail, which changes nothing.
        unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_SEND as _, &mut resp) };
    }
}
