//! Installing the local model server from the app (onboarding's "Zeta's own model"): a
//! virtualenv with llama-cpp-python, as `scripts/local-model.sh` makes it. pip builds
//! llama.cpp from source, about ten minutes on two cores. It installs into
//! `<venv>.installing` and renames that to the venv only when pip succeeded, so a
//! cancelled or failed install never looks like a usable server. pip and everything it
//! starts (cmake, the compilers) run in their own process group, ended by its id when the
//! install is cancelled or dropped: nothing is left running.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, BufReader};

/// What pip installs (the version `scripts/local-model.sh` pins).
pub const PACKAGE: &str = "llama-cpp-python[server]==0.3.36";

/// About how long the install takes on a 2-core machine (measured: 9 min 19 s).
pub const ESTIMATE_SECS: u64 = 600;

/// Ends a process group when dropped (the install was cancelled or finished).
struct Group(i32);

impl Drop for Group {
    fn drop(&mut self) {
        if self.0 > 0 {
            // SAFETY: killpg only sends a signal to the group this install created.
            unsafe {
                libc::killpg(self.0, libc::SIGKILL);
            }
        }
    }
}

/// Runs `program args` in its own process group, handing each output line to `on_line`.
async fn run(
    program: &Path,
    args: &[&str],
    on_line: &mut (dyn FnMut(String) + Send),
) -> Result<(), String> {
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .env("PIP_PROGRESS_BAR", "off")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", program.display()))?;
    let _group = Group(child.id().map(|id| id as i32).unwrap_or(0));
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        return Err("could not read the installer's output".into());
    };
    let mut out = BufReader::new(out).lines();
    let mut err = BufReader::new(err).lines();
    let mut last_error = String::new();
    let (mut out_open, mut err_open) = (true, true);
    while out_open || err_open {
        tokio::select! {
            line = out.next_line(), if out_open => match line {
                Ok(Some(line)) => on_line(line),
                _ => out_open = false,
            },
            line = err.next_line(), if err_open => match line {
                Ok(Some(line)) => {
                    if line.to_ascii_lowercase().contains("error") {
                        last_error = line.clone();
                    }
                    on_line(line);
                }
                _ => err_open = false,
            },
        }
    }
    let status = child
        .wait()
        .await
        .map_err(|e| format!("the installer could not be waited for: {e}"))?;
    if status.success() {
        Ok(())
    } else if last_error.is_empty() {
        Err(format!("{} ended with {status}", program.display()))
    } else {
        Err(last_error)
    }
}

/// Installs llama-cpp-python into `venv` (see the module doc). `on_line` sees pip's
/// output as it comes. Dropping the future cancels it and ends pip's process group.
pub async fn install_server(
    venv: &Path,
    on_line: &mut (dyn FnMut(String) + Send),
) -> Result<PathBuf, String> {
    let staging = venv.with_extension("installing");
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .map_err(|e| format!("could not clear {}: {e}", staging.display()))?;
    }
    if let Some(parent) = staging.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("could not create {}: {e}", parent.display()))?;
    }
    let staging_arg = staging.to_string_lossy().to_string();
    on_line(format!("Making a Python environment in {staging_arg}"));
    run(Path::new("python3"), &["-m", "venv", &staging_arg], on_line).await?;
    let python = staging.join("bin").join("python");
    on_line(format!("Installing {PACKAGE} (pip builds llama.cpp)"));
    run(
        &python,
        &["-m", "pip", "install", "--no-input", PACKAGE],
        on_line,
    )
    .await?;
    if venv.exists() {
        std::fs::remove_dir_all(venv)
            .map_err(|e| format!("could not replace {}: {e}", venv.display()))?;
    }
    std::fs::rename(&staging, venv)
        .map_err(|e| format!("could not move the environment into place: {e}"))?;
    Ok(venv.join("bin").join("python"))
}
