//! Confining the processes of `shell` and `run_code` (and everything they start) with
//! Landlock, as codex-rs does on Linux: writes succeed only where the task's `Writable`
//! set says (zeta-core's `policy::writable`); reading, running programs and the network
//! are left alone. The rules are built in Zeta's process before the fork, and the child
//! only restricts itself between fork and exec (no allocation there).
//!
//! Where the kernel has no Landlock, nothing is confined: `zeta doctor` says so and the
//! gate asks before every write outside the home that it can see.

use landlock::{
    AccessFs, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, RulesetStatus, ABI,
};
use zeta_core::policy::{Grant, Writable};

/// The rights Zeta handles: every kind of write (Landlock ABI 3: with truncation and
/// moves across folders). Reading and ioctl on devices stay unrestricted.
const ABI_USED: ABI = ABI::V3;

/// Whether this kernel can confine tool processes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    Available,
    /// Why not (not built into the kernel, disabled at boot, or too old).
    Missing(String),
}

/// Asks the kernel (cheap: one ruleset created and dropped).
pub fn support() -> Support {
    match Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_write(ABI_USED))
        .and_then(|r| r.create())
    {
        Ok(_) => Support::Available,
        Err(e) => Support::Missing(format!(
            "this kernel does not offer Landlock ABI {} or later ({e})",
            ABI_USED as i32
        )),
    }
}

/// Why confinement could not be set up; the call does not run.
#[derive(Debug, thiserror::Error)]
#[error("could not confine the command to the folders it may write ({0})")]
pub struct ConfineError(String);

/// The rules for one process, ready to be applied in the child.
pub struct Rules(RulesetCreated);

/// Builds the rules for `writable` as the file system stands now. Entries that vanish
/// while this runs are skipped.
pub fn rules(writable: &Writable) -> Result<Rules, ConfineError> {
    let all = AccessFs::from_write(ABI_USED);
    let file = all & AccessFs::from_file(ABI_USED);
    let mut created = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(all)
        .and_then(|r| r.create())
        .map_err(|e| ConfineError(e.to_string()))?;
    for grant in writable.grants() {
        let (path, access) = match &grant {
            Grant::Tree(p) => (p, all),
            Grant::File(p) => (p, file),
        };
        let Ok(fd) = PathFd::new(path) else { continue };
        created = created
            .add_rule(PathBeneath::new(fd, access))
            .map_err(|e| ConfineError(format!("{}: {e}", path.display())))?;
    }
    Ok(Rules(created))
}

/// Makes the command's process restrict itself with `rules` just before it execs. If
/// the kernel refuses, the process does not start.
pub fn apply(command: &mut tokio::process::Command, rules: Rules) {
    let mut rules = Some(rules.0);
    // SAFETY: the closure runs in the child between fork and exec. It only makes the
    // prctl and landlock_restrict_self system calls and closes the ruleset's descriptor;
    // the error it returns is built from a raw errno, without allocating.
    unsafe {
        command.pre_exec(move || {
            let Some(ruleset) = rules.take() else {
                return Ok(());
            };
            match ruleset.restrict_self() {
                Ok(status) if status.ruleset == RulesetStatus::FullyEnforced => Ok(()),
                _ => Err(std::io::Error::from_raw_os_error(nix::libc::EPERM)),
            }
        });
    }
}
