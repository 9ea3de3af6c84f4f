//! What the seccomp filters of tool processes share (`seal`, `watch`): the architecture
//! a filter accepts, and loading a filter in a child between fork and exec.

/// The audit architecture of this build: a system call of any other (a 32-bit program's)
/// is refused by the filters rather than judged by the wrong numbers.
#[cfg(target_arch = "x86_64")]
pub const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
pub const AUDIT_ARCH: u32 = 0xC000_00B7;

/// Loads `program` on the calling process (no new privileges first, as the kernel asks
/// of an unprivileged filter), with `flags`; returns what the seccomp call returned (a
/// listener descriptor with `SECCOMP_FILTER_FLAG_NEW_LISTENER`).
///
/// # Safety
/// Meant for a child between fork and exec: it makes only the prctl and seccomp system
/// calls, on `program` (prepared before the fork), and allocates nothing.
pub unsafe fn load(
    program: &[libc::sock_filter],
    flags: libc::c_ulong,
) -> std::io::Result<libc::c_long> {
    if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let fprog = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    let rc = libc::syscall(
        libc::SYS_seccomp,
        libc::SECCOMP_SET_MODE_FILTER,
        flags,
        &fprog as *const libc::sock_fprog,
    );
    if rc < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(rc)
}
