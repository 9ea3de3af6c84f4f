//! The seccomp filter every watched process carries: the system calls that write,
//! remove, rename, make or chmod a file stop and wait for the supervisor (`USER_NOTIF`);
//! an `open` stops only when its flags can write. Everything else runs unwatched, at no
//! cost. io_uring (whose operations would pass by the filter) and the system calls of
//! another architecture (a 32-bit program) fail with ENOSYS instead of passing unseen.

use libc::{
    sock_filter, BPF_ABS, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_JSET, BPF_K, BPF_LD, BPF_RET, BPF_W,
};

use crate::seccomp::AUDIT_ARCH;

/// Open flags that can change a file.
pub const WRITE_FLAGS: u32 = (libc::O_WRONLY | libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC) as u32;

/// System calls that always stop.
fn always() -> Vec<i64> {
    let mut calls = vec![
        libc::SYS_openat2,
        libc::SYS_truncate,
        libc::SYS_ftruncate,
        libc::SYS_unlinkat,
        libc::SYS_renameat,
        libc::SYS_renameat2,
        libc::SYS_fchmod,
        libc::SYS_fchmodat,
        452, // fchmodat2
        libc::SYS_mkdirat,
        libc::SYS_symlinkat,
        libc::SYS_linkat,
        libc::SYS_mknodat,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([
        libc::SYS_creat,
        libc::SYS_unlink,
        libc::SYS_rmdir,
        libc::SYS_rename,
        libc::SYS_chmod,
        libc::SYS_mkdir,
        libc::SYS_symlink,
        libc::SYS_link,
        libc::SYS_mknod,
    ]);
    calls
}

#[derive(Clone, Copy)]
enum To {
    Next,
    Notify,
    Allow,
    Enosys,
    /// Look at the flags in argument 1 (`open`) or 2 (`openat`).
    Flags(u8),
}

enum Op {
    Load(u32),
    Jump { code: u16, k: u32, yes: To, no: To },
    Ret(u32),
}

fn arg_low(n: u32) -> u32 {
    // struct seccomp_data: nr (4), arch (4), instruction_pointer (8), args[6] (8 each);
    // the low 32 bits of a little-endian argument come first.
    16 + 8 * n
}

/// The filter program.
pub fn program() -> Vec<sock_filter> {
    let mut ops = vec![
        Op::Load(4),
        Op::Jump {
            code: BPF_JEQ as u16,
            k: AUDIT_ARCH,
            yes: To::Next,
            no: To::Enosys,
        },
        Op::Load(0),
        Op::Jump {
            code: BPF_JGE as u16,
            k: 0x4000_0000,
            yes: To::Enosys,
            no: To::Next,
        },
        Op::Jump {
            code: BPF_JEQ as u16,
            k: libc::SYS_io_uring_setup as u32,
            yes: To::Enosys,
            no: To::Next,
        },
        Op::Jump {
            code: BPF_JEQ as u16,
            k: libc::SYS_openat as u32,
            yes: To::Flags(2),
            no: To::Next,
        },
    ];
    #[cfg(target_arch = "x86_64")]
    ops.push(Op::Jump {
        code: BPF_JEQ as u16,
        k: libc::SYS_open as u32,
        yes: To::Flags(1),
        no: To::Next,
    });
    for nr in always() {
        ops.push(Op::Jump {
            code: BPF_JEQ as u16,
            k: nr as u32,
            yes: To::Notify,
            no: To::Next,
        });
    }
    ops.push(Op::Ret(libc::SECCOMP_RET_ALLOW));
    // The labels, in this order after the body.
    let mut flags = [0usize; 2];
    for (label, arg) in flags.iter_mut().zip([1, 2]) {
        *label = ops.len();
        ops.push(Op::Load(arg_low(arg)));
        ops.push(Op::Jump {
            code: BPF_JSET as u16,
            k: WRITE_FLAGS,
            yes: To::Notify,
            no: To::Allow,
        });
    }
    let [flags1, flags2] = flags;
    let notify = ops.len();
    ops.push(Op::Ret(libc::SECCOMP_RET_USER_NOTIF));
    let allow = ops.len();
    ops.push(Op::Ret(libc::SECCOMP_RET_ALLOW));
    let enosys = ops.len();
    ops.push(Op::Ret(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32));

    let offset = |at: usize, to: To| -> u8 {
        let target = match to {
            To::Next => at + 1,
            To::Notify => notify,
            To::Allow => allow,
            To::Enosys => enosys,
            To::Flags(1) => flags1,
            To::Flags(_) => flags2,
        };
        // Every label lies ahead, within a jump's reach (the program is ~40 long).
        (target - at - 1) as u8
    };
    ops.iter()
        .enumerate()
        .map(|(at, op)| match op {
            Op::Load(k) => sock_filter {
                code: (BPF_LD | BPF_W | BPF_ABS) as u16,
                jt: 0,
                jf: 0,
                k: *k,
            },
            Op::Jump { code, k, yes, no } => sock_filter {
                code: (BPF_JMP | BPF_K) as u16 | code,
                jt: offset(at, *yes),
                jf: offset(at, *no),
                k: *k,
            },
            Op::Ret(k) => sock_filter {
                code: (BPF_RET | BPF_K) as u16,
                jt: 0,
                jf: 0,
                k: *k,
            },
        })
        .collect()
}
