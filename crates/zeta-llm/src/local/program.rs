//! Which llama.cpp server Zeta runs for the local provider, and its command line:
//! `ZETA_LLAMA_SERVER` when set (a `llama-server` binary or a Python with llama-cpp-python),
//! else `llama-server` on PATH, else the `llama-server` Zeta's setup builds from llama.cpp's
//! sources (`$XDG_CACHE_HOME/zeta/llama-server/llama-server`, by default under `~/.cache`),
//! else the llama-cpp-python virtualenv it falls back to when that build is impossible
//! (`$XDG_CACHE_HOME/zeta/llama-venv`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

use super::{LocalError, LocalSpec};

/// A server program that serves `/v1/chat/completions` for one GGUF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerProgram {
    /// llama.cpp's own `llama-server`.
    LlamaServer(PathBuf),
    /// `python -m llama_cpp.server` (llama-cpp-python), by the Python that has it.
    LlamaCppPython(PathBuf),
}

impl ServerProgram {
    /// Finds one, in the order of the module doc.
    pub fn find() -> Result<Self, LocalError> {
        if let Some(path) = std::env::var_os("ZETA_LLAMA_SERVER").filter(|v| !v.is_empty()) {
            return Self::from_path(PathBuf::from(path));
        }
        if let Some(path) = on_path("llama-server") {
            return Ok(Self::LlamaServer(path));
        }
        let built = default_build();
        if built.is_file() {
            return Ok(Self::LlamaServer(built));
        }
        let python = default_venv().join("bin").join("python");
        if python.is_file() {
            return Ok(Self::LlamaCppPython(python));
        }
        Err(LocalError::NoServer {
            looked: format!(
                "ZETA_LLAMA_SERVER is not set, llama-server is not on PATH, and neither {} nor {} exists",
                built.display(),
                python.display()
            ),
        })
    }

    /// A path named by the user: a Python (by its file name) or a llama-server binary.
    pub fn from_path(path: PathBuf) -> Result<Self, LocalError> {
        if !path.is_file() {
            return Err(LocalError::NoServer {
                looked: format!(
                    "ZETA_LLAMA_SERVER names {}, which is not a file",
                    path.display()
                ),
            });
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        Ok(if name.starts_with("python") {
            Self::LlamaCppPython(path)
        } else {
            Self::LlamaServer(path)
        })
    }

    /// llama-cpp-python refuses `response_format: json_schema` (HTTP 500) and takes
    /// `json_object` with a `schema`; llama-server takes both.
    pub fn wants_json_object_schema(&self) -> bool {
        matches!(self, Self::LlamaCppPython(_))
    }

    /// Which kind of server this is, in words (`zeta doctor`).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::LlamaServer(_) => "llama.cpp's llama-server",
            Self::LlamaCppPython(_) => "llama-cpp-python (the fallback)",
        }
    }

    /// llama-server keeps each slot's evaluated prompt when asked (`cache_prompt`), so a
    /// request that starts with the same bytes evaluates only what is new.
    pub fn caches_prompts(&self) -> bool {
        matches!(self, Self::LlamaServer(_))
    }

    /// The program's file (the binary, or the Python).
    pub fn path(&self) -> &Path {
        match self {
            Self::LlamaServer(p) | Self::LlamaCppPython(p) => p,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Self::LlamaServer(p) => p.display().to_string(),
            Self::LlamaCppPython(p) => format!("{} -m llama_cpp.server", p.display()),
        }
    }

    /// The command that serves `spec` on 127.0.0.1:`port`, its output to `log`; llama-server
    /// saves and restores its slot's evaluated prompt in `slots` ([`super::kept_prompt`]).
    pub fn command(
        &self,
        spec: &LocalSpec,
        port: u16,
        slots: Option<&Path>,
        log: Stdio,
        log2: Stdio,
    ) -> Command {
        let model = spec.model.display().to_string();
        let (threads, context, port) = (
            spec.threads.to_string(),
            spec.context.to_string(),
            port.to_string(),
        );
        // Prompt evaluation (batched) on every core: twice as fast on an idle 2-core
        // machine and ~1.3x slower with one core busy, where generating on every core
        // collapsed (133 s instead of 11 s per task); generation keeps one core free.
        let batch_threads = std::thread::available_parallelism()
            .map_or(spec.threads, |n| n.get().max(spec.threads))
            .to_string();
        let mut cmd = match self {
            Self::LlamaServer(bin) => {
                let mut cmd = Command::new(bin);
                cmd.args(["--model", &model, "--host", "127.0.0.1", "--port", &port])
                    .args(["--threads", &threads, "--ctx-size", &context])
                    .args(["--threads-batch", &batch_threads])
                    // One conversation at a time: one slot with the whole context, whose
                    // cached prompt the next request reuses.
                    .args(["--parallel", "1", "--no-webui"]);
                if let Some(slots) = slots {
                    cmd.arg("--slot-save-path").arg(slots);
                }
                let knows = knows(bin);
                // Fitting asks every device for its memory and loads the model's metadata
                // once more to adjust what is left unset (layers on a GPU, the context):
                // ~0.25 s of each start, for nothing where the CPU is the only device and
                // the context is given (start → ready 1.14 s against 1.38 s, 3 starts each).
                if knows.skip_fit {
                    cmd.args(["--fit", "off"]);
                }
                cmd
            }
            Self::LlamaCppPython(python) => {
                let mut cmd = Command::new(python);
                cmd.args(["-m", "llama_cpp.server", "--model", &model])
                    .args(["--host", "127.0.0.1", "--port", &port])
                    .args(["--n_threads", &threads, "--n_ctx", &context])
                    .args(["--n_threads_batch", &batch_threads]);
                cmd
            }
        };
        cmd.stdin(Stdio::null()).stdout(log).stderr(log2);
        cmd
    }
}

// No speculation: llama-server can draft tokens from n-grams of its own context
// (`--spec-type ngram-simple`) and check them in one batch, which measured 8.3 against
// 5.9 tokens/s on an earlier machine (benches/draft_model.rs). On this one (2 cores of an
// AMD EPYC) checking a draft costs more than it saves: the everyday bench's 17 tune tasks
// took 214.6 s with 16 tokens drafted and 177.6 s with none, the same outcomes, every task
// faster (16 of them: 197.8 s, 171.7 s with 4 drafted, 162.3 s with none), and Zeta's real
// replies generated at ~110 against ~65 ms a token. So the server is run without it.

/// What the llama-server at `bin` knows, from its `--help` and `--list-devices` (a build a
/// user brings may be older; one that cannot run knows nothing), asked once per program.
#[derive(Debug, Clone, Copy, Default)]
struct Knows {
    /// `--fit off` is safe and worth it: the server knows `--fit` (fitting unset parameters
    /// to the devices' memory before loading) and lists no device but the CPU
    /// (`--list-devices`), so there is nothing to fit.
    skip_fit: bool,
}

/// What `bin ARG` printed, both streams; empty when it could not run.
fn printed(bin: &Path, arg: &str) -> String {
    Command::new(bin)
        .arg(arg)
        .stdin(Stdio::null())
        .output()
        .map(|out| {
            format!(
                "{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .unwrap_or_default()
}

fn knows(bin: &Path) -> Knows {
    static KNOWN: OnceLock<Mutex<HashMap<PathBuf, Knows>>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(answer) = known.lock().ok().and_then(|k| k.get(bin).copied()) {
        return answer;
    }
    let help = printed(bin, "--help");
    let answer = Knows {
        skip_fit: help.split_whitespace().any(|w| w == "--fit") && {
            let devices = printed(bin, "--list-devices");
            devices
                .split_once("Available devices:")
                .is_some_and(|(_, list)| list.trim() == "(none)")
        },
    };
    if let Ok(mut known) = known.lock() {
        known.insert(bin.to_path_buf(), answer);
    }
    answer
}

/// Where Zeta's setup makes the llama-cpp-python virtualenv.
pub fn default_venv() -> PathBuf {
    zeta_cache().join("llama-venv")
}

/// Where Zeta's setup builds llama.cpp's `llama-server` (`scripts/llama-server.sh`).
pub fn default_build() -> PathBuf {
    zeta_cache().join("llama-server").join("llama-server")
}

/// Zeta's cache folder: `$XDG_CACHE_HOME/zeta`, by default `~/.cache/zeta`.
pub fn zeta_cache() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    cache.join("zeta")
}

pub(super) fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_path_means_llama_cpp_python_with_json_object() {
        let dir = tempfile::tempdir().expect("tempdir");
        let python = dir.path().join("python3");
        std::fs::write(&python, "").expect("write");
        let program = ServerProgram::from_path(python.clone()).expect("program");
        assert_eq!(program, ServerProgram::LlamaCppPython(python));
        assert!(program.wants_json_object_schema());
        let spec = LocalSpec {
            model: PathBuf::from("/m/q.gguf"),
            context: 4096,
            threads: 1,
            keep_warm: std::time::Duration::ZERO,
        };
        let cmd = program.command(&spec, 4321, None, Stdio::null(), Stdio::null());
        let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into()).collect();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(
            args.join(" "),
            format!("-m llama_cpp.server --model /m/q.gguf --host 127.0.0.1 --port 4321 --n_threads 1 --n_ctx 4096 --n_threads_batch {cores}")
        );
        let server = dir.path().join("llama-server");
        std::fs::write(&server, "").expect("write");
        let program = ServerProgram::from_path(server).expect("program");
        assert!(!program.wants_json_object_schema());
        let cmd = program.command(
            &spec,
            1,
            Some(Path::new("/h/p")),
            Stdio::null(),
            Stdio::null(),
        );
        assert!(cmd.get_args().any(|a| a == "--ctx-size"));
        let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into()).collect();
        assert!(
            args.join(" ").ends_with("--slot-save-path /h/p"),
            "{args:?}"
        );
        assert!(ServerProgram::from_path(dir.path().join("missing")).is_err());
    }

    /// A llama-server gets `--fit off` where it knows `--fit` and has no device but the
    /// CPU; one that does not know it (an older build a user brings), one with a GPU, or
    /// one that cannot run gets no flag it would refuse or that would cost it its fitting.
    /// None is told to speculate, whatever it knows.
    #[cfg(unix)]
    #[test]
    fn flags_only_where_the_server_knows_them() {
        let dir = tempfile::tempdir().expect("temp");
        let spec = LocalSpec {
            model: "/m/q.gguf".into(),
            context: 4096,
            threads: 1,
            keep_warm: std::time::Duration::ZERO,
        };
        let cpu = "Available devices:\\n  (none)";
        let gpu = "Available devices:\\n  CUDA0: NVIDIA RTX 4060 (8188 MiB, 7800 MiB free)";
        let new = "--spec-type none,draft-simple,ngram-simple\\n-fit,  --fit [on|off]";
        for (name, help, devices, fits_off) in [
            ("new", new, cpu, true),
            ("gpu", new, gpu, false),
            ("no-fit", "--spec-type ngram-simple --fitness", cpu, false),
            (
                "old",
                "--draft-max N  number of tokens to draft",
                cpu,
                false,
            ),
            ("broken", "", "", false),
        ] {
            let bin = dir.path().join(name).join("llama-server");
            std::fs::create_dir_all(bin.parent().expect("parent")).expect("dir");
            let body = if help.is_empty() {
                "exit 1".to_string()
            } else {
                format!(
                    "if [ \"$1\" = --list-devices ]; then printf '%b\\n' '{devices}'; else printf '%b\\n' '{help}'; fi"
                )
            };
            // Written by a child process: a file this process held open for writing could
            // be inherited by a fork on another test thread and refuse to run (ETXTBSY).
            let written = Command::new("sh")
                .arg("-c")
                .arg("printf '#!/bin/sh\\n%s\\n' \"$1\" > \"$0\" && chmod 755 \"$0\"")
                .arg(&bin)
                .arg(&body)
                .status()
                .expect("sh");
            assert!(written.success());
            let program = ServerProgram::from_path(bin).expect("program");
            let cmd = program.command(&spec, 1, None, Stdio::null(), Stdio::null());
            let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into()).collect();
            let line = args.join(" ");
            assert!(!line.contains("--spec"), "{name}: {args:?}");
            assert_eq!(line.contains("--fit off"), fits_off, "{name}: {args:?}");
        }
    }
}
