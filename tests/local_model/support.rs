//! Running `zeta` against the real local model: finding the model and the server (the
//! llama-server build, else llama-cpp-python) that `scripts/local-model.sh` caches, a home that uses them, and one `zeta run` with its
//! events, reply and timing. Shared by the local model test and the multi-step benchmark.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use zeta_test_support::Needs;

pub const MODEL: &str = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf";

pub struct Local {
    pub model: PathBuf,
    /// The server program Zeta would choose (`ZETA_LLAMA_SERVER` for the commands).
    pub server: PathBuf,
}

/// The model and server, or why they are missing.
pub fn local() -> Result<Local, String> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .ok_or("no HOME")?
        .join("zeta");
    let model = std::env::var_os("ZETA_LOCAL_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| cache.join("models").join(MODEL));
    if !model.is_file() {
        return Err(format!("no model at {}", model.display()));
    }
    let server = zeta_llm::local::ServerProgram::find()
        .map_err(|e| e.to_string())?
        .path()
        .to_path_buf();
    Ok(Local { model, server })
}

pub fn available() -> Option<Local> {
    match local() {
        Ok(local) => Some(local),
        Err(why) => {
            let why = format!("{why}; run scripts/local-model.sh to get them");
            zeta_test_support::cannot_run(Needs::LocalModel, "local model test", why);
            None
        }
    }
}

/// A home with the model imported and in use, and a work folder as the user's HOME.
pub fn home(local: &Local) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let work = dir.path().join("user");
    std::fs::create_dir_all(&work).expect("work dir");
    let z = |args: &[&str]| {
        let out = zeta(dir.path(), &work, &local.server)
            .args(args)
            .output()
            .expect("run zeta");
        assert!(
            out.status.success(),
            "zeta {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    z(&["models", "import", &local.model.display().to_string()]);
    z(&["models", "use", MODEL]);
    (dir, work)
}

pub fn zeta(dir: &Path, work: &Path, server: &Path) -> Command {
    // `ZETA_BIN`: another build to measure (a bench's side-by-side run).
    let bin = std::env::var_os("ZETA_BIN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_zeta").into());
    let mut cmd = Command::new(bin);
    cmd.env("ZETA_HOME", dir.join("zeta"))
        .env("HOME", work)
        .env("ZETA_LLAMA_SERVER", server)
        .env("ZETA_SECRETS", "file")
        .env("RUST_LOG", "warn,zeta_core=info")
        .env_remove("ZETA_LLM_PROVIDER")
        .env_remove("ZETA_LLM_BASE_URL")
        .env_remove("ZETA_LLM_MODEL")
        .env_remove("ZETA_LLM_PROTOCOL")
        .current_dir(work);
    cmd
}

pub struct Outcome {
    pub reply: String,
    pub stderr: String,
    pub ok: bool,
    pub took: Duration,
    pub iterations: usize,
    /// What the agent asked the user (`ask_user`), in order.
    pub questions: Vec<String>,
    /// The size of the task's first request to the model, in tokens (Zeta's count).
    pub first_request_tokens: u64,
    /// Each call the agent made, with its arguments and how it ended, for a failure's
    /// message.
    pub calls: Vec<String>,
    /// The task's id in the home's queue.
    pub task_id: Option<i64>,
}

/// `zeta run --json --approve all TASK`; `during` sees each event as it comes.
pub fn run(
    dir: &Path,
    work: &Path,
    local: &Local,
    task: &str,
    during: impl FnMut(&serde_json::Value),
) -> Outcome {
    run_typing(dir, work, local, task, None, during)
}

/// `zeta run --json TASK` with a person at the terminal who types `typed` (`--approve
/// ask`: the agent's questions are answered from it); with `None`, `--approve all` and
/// nobody there.
pub fn run_typing(
    dir: &Path,
    work: &Path,
    local: &Local,
    task: &str,
    typed: Option<&str>,
    mut during: impl FnMut(&serde_json::Value),
) -> Outcome {
    let started = Instant::now();
    let approve = if typed.is_some() { "ask" } else { "all" };
    let mut child = zeta(dir, work, &local.server)
        .args(["run", "--json", "--approve", approve, task])
        .stdin(if typed.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start zeta run");
    if let (Some(text), Some(mut stdin)) = (typed, child.stdin.take()) {
        // The line waits in the pipe until the question reads it; the pipe then closes,
        // so a second question hears that nobody answers.
        std::io::Write::write_all(&mut stdin, text.as_bytes()).expect("type the answer");
    }
    let stderr = child.stderr.take().expect("stderr");
    // `ZETA_SUPPORT_QUIET`: Zeta's log is kept, not shown (a bench's held-out tasks, whose
    // log lines quote their answers).
    let echo = std::env::var_os("ZETA_SUPPORT_QUIET").is_none();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if echo {
                eprintln!("  | {line}");
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    let mut events = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
    {
        if let Ok(event) = serde_json::from_str::<serde_json::Value>(&line) {
            during(&event);
            events.push(event);
        }
    }
    let status = child.wait().expect("wait for zeta");
    let stderr = reader.join().expect("stderr reader");
    let iterations = events
        .iter()
        .filter(|e| e["type"] == "iterationStarted")
        .count();
    let first_request_tokens = events
        .iter()
        .find(|e| e["type"] == "iterationStarted")
        .and_then(|e| e["contextTokens"].as_u64())
        .unwrap_or_default();
    let questions = events
        .iter()
        .filter(|e| e["type"] == "questionAsked")
        .filter_map(|e| e["question"].as_str().map(str::to_string))
        .collect();
    let calls = events
        .iter()
        .filter_map(|e| match e["type"].as_str() {
            Some("toolCallStarted") => Some(format!("{} {}", e["tool"], e["arguments"])),
            Some("toolCallFinished") => Some(format!("  -> ok {} {}", e["ok"], e["summary"])),
            _ => None,
        })
        .collect();
    let task = events
        .iter()
        .rev()
        .find(|e| e["type"] == "taskFinished")
        .map(|e| e["task"].clone())
        .unwrap_or_default();
    Outcome {
        task_id: task["id"].as_i64(),
        reply: task["reply"].as_str().unwrap_or_default().to_string(),
        // Done; exit 3 is done with a refused call (what was refused is in the events).
        ok: matches!(status.code(), Some(0 | 3)) && task["status"] == "done",
        stderr,
        took: started.elapsed(),
        iterations,
        questions,
        first_request_tokens,
        calls,
    }
}

/// Ends, by the PID in its lock file, the keeper a command left in this Zeta home (a test
/// that fails midway must not leave a loaded model behind).
pub struct StopKeeper(pub PathBuf);

impl Drop for StopKeeper {
    fn drop(&mut self) {
        let pid = zeta_llm::local::shared::keeper_pid(&self.0);
        if let Some(pid) = pid.filter(|p| zeta_llm::local::shared::alive(*p)) {
            let _ = zeta_llm::local::shared::stop_keeper(pid);
        }
    }
}

/// POSTs a chat request to a llama.cpp server on 127.0.0.1 and returns its JSON reply.
pub fn post(port: u16, body: &serde_json::Value) -> Result<serde_json::Value, String> {
    let text = body.to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "POST /v1/chat/completions HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
        text.len()
    )
    .map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .map_err(|e| e.to_string())?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or("");
    serde_json::from_str(body).map_err(|e| format!("{e}: {body}"))
}

/// The bare planner loop's prompt (benches): a short prompt and one worked example.
pub const BARE_PROMPT: &str = "You carry out the user's request on their Linux computer with \
shell commands, one at a time. Reply with exactly one JSON object: {\"command\": string, \
\"reply\": string, \"done\": boolean}.\n\
Rules:\n\
1. To run a command, put it in command and set done to false. You get its output.\n\
2. Never answer before an output has shown you the answer.\n\
3. When the request is done, set command to \"\", done to true, and answer in reply with \
the numbers and names from the outputs.\n\
Example. User: How much free disk space do I have?\n\
You: {\"command\": \"df -h /\", \"reply\": \"\", \"done\": false}\n\
User: Output of df -h /:\nFilesystem Size Used Avail Use% Mounted on\n/dev/sda1 100G 40G 60G 40% /\n\
You: {\"command\": \"\", \"reply\": \"You have 60 GB free of 100 GB.\", \"done\": true}";

/// The bare loop's plan: three keys, no reasoning.
pub fn bare_schema() -> serde_json::Value {
    serde_json::json!({"type": "object", "properties": {
        "command": {"type": "string"}, "reply": {"type": "string"}, "done": {"type": "boolean"}
    }, "required": ["command", "reply", "done"]})
}
