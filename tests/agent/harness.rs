//! The harness for the agent scenarios: a scripted LLM server on 127.0.0.1, a temporary
//! `ZETA_HOME` whose settings point at it, scripts written once and rendered for either
//! protocol, and the real `zeta` binary (or the real worker in-process) running the task.

use std::path::Path;
use std::process::{Command, Output};
pub use zeta_test_support::procs::live_group_members;

use serde_json::{json, Value};
use zeta_core::{spawn_worker, Core, Event, WorkerOptions, ZetaHome};
use zeta_scripted_llm::{Recorded, ScriptedServer, Step, Wire};

pub const WIRES: [Wire; 3] = [Wire::OpenAi, Wire::Anthropic, Wire::Ollama];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proto {
    Native,
    Json,
}

pub const PROTOS: [Proto; 2] = [Proto::Native, Proto::Json];

/// One model turn, written once for both protocols.
#[derive(Debug, Clone)]
pub enum Turn {
    Run(String),
    Answer(String),
}

pub fn run(cmd: impl Into<String>) -> Turn {
    Turn::Run(cmd.into())
}

pub fn answer(text: impl Into<String>) -> Turn {
    Turn::Answer(text.into())
}

/// The scripted step for a turn in the given protocol.
pub fn step(turn: &Turn, proto: Proto) -> Step {
    match (turn, proto) {
        (Turn::Run(cmd), Proto::Native) => Step::call("shell", json!({ "command": cmd })),
        (Turn::Answer(text), Proto::Native) => Step::text(text.clone()),
        (Turn::Run(cmd), Proto::Json) => Step::text(
            json!({"command": cmd, "reasoning": "next step", "reply": "", "done": false})
                .to_string(),
        ),
        (Turn::Answer(text), Proto::Json) => Step::text(
            json!({"command": "", "reasoning": "finished", "reply": text, "done": true})
                .to_string(),
        ),
    }
}

/// A call of any tool, in the given protocol (the planner names it in `tool`).
pub fn tool_step(proto: Proto, tool: &str, args: Value) -> Step {
    match proto {
        Proto::Native => Step::call(tool, args),
        Proto::Json => Step::text(
            json!({"command": "", "tool": tool, "args": args, "reasoning": "next", "reply": "", "done": false})
                .to_string(),
        ),
    }
}

pub fn script(turns: &[Turn], proto: Proto) -> Vec<Step> {
    turns.iter().map(|t| step(t, proto)).collect()
}

pub struct Setup {
    pub home: tempfile::TempDir,
    pub server: ScriptedServer,
}

impl Setup {
    pub async fn new(wire: Wire, proto: Proto, steps: Vec<Step>) -> Self {
        Self::with_settings(wire, proto, steps, json!({})).await
    }

    /// `extra` is merged into settings.json (top-level keys, or `provider` keys).
    pub async fn with_settings(wire: Wire, proto: Proto, steps: Vec<Step>, extra: Value) -> Self {
        let server = ScriptedServer::start(steps)
            .await
            .expect("start scripted server");
        let home = tempfile::tempdir().expect("temp home");
        // The scenarios are about the loop; consent has its own tests, which set `ask`.
        let mut settings = json!({
            "provider": provider_section(&server, wire, proto),
            "permissions": {"mode": "auto"},
        });
        if let Value::Object(extra) = extra {
            for (k, v) in extra {
                if k == "provider" {
                    if let (Some(p), Value::Object(v)) = (settings["provider"].as_object_mut(), v) {
                        p.extend(v);
                    }
                } else {
                    settings[k] = v;
                }
            }
        }
        std::fs::write(home.path().join("settings.json"), settings.to_string()).expect("settings");
        Self { home, server }
    }

    /// Zeta's own small local model, answered by `steps`: the local provider (`extra`
    /// merged in) with a fake weights file, its server the fake llama-server in front of
    /// the scripted one (`small_command`).
    pub async fn small(steps: Vec<Step>, extra: Value) -> Self {
        let mut settings = json!({"verify": "never", "provider": {"kind": "local", "baseUrl": "", "model": "m.gguf", "stream": false, "keepWarmSecs": 0}});
        if let Value::Object(extra) = extra {
            for (k, v) in extra {
                settings[k] = v;
            }
        }
        let s = Self::with_settings(Wire::OpenAi, Proto::Json, steps, settings).await;
        std::fs::create_dir_all(s.home.path().join("models")).expect("models");
        std::fs::write(s.home.path().join("models/m.gguf"), b"GGUF fake weights").expect("model");
        s
    }

    /// `zeta ARGS` for a `small` setup: the local model served by the fake llama-server.
    pub fn small_command(&self, args: &[&str]) -> Command {
        let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agent/fake-llama-server");
        let mut cmd = self.command(args);
        cmd.env("ZETA_LLAMA_SERVER", &fake)
            .env("FAKE_LLAMA_UPSTREAM", self.server.openai_base_url());
        cmd
    }

    /// Ends the local model's keeper and server (`keepWarmSecs` 0 ends them with the
    /// home; a test that is done ends them now).
    pub fn stop_small(&self) {
        if let Some(pid) = zeta_llm::local::shared::keeper_pid(self.home.path()) {
            let _ = zeta_llm::local::shared::stop_keeper(pid);
        }
    }

    /// `zeta run --json --approve all TASK` against this home: the scenarios are about the
    /// loop, and in `auto` mode a task that has read untrusted input (command output, a
    /// file) asks before its next change; here the user says yes.
    pub fn zeta_run(&self, task: &str) -> Output {
        self.zeta(&["run", "--json", "--approve", "all", task])
    }

    pub fn zeta(&self, args: &[&str]) -> Output {
        self.zeta_env(args, &[])
    }

    /// The same with `env` added to zeta's environment.
    pub fn zeta_env(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        self.command(args)
            .envs(env.iter().copied())
            .output()
            .expect("run zeta")
    }

    /// `zeta ARGS` against this home, to be run.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_zeta"));
        cmd.args(args)
            .env("ZETA_HOME", self.home.path())
            .env("HOME", self.home.path())
            .env_remove("ZETA_LLM_PROVIDER")
            .env_remove("ZETA_LLM_BASE_URL")
            .env_remove("ZETA_LLM_MODEL")
            .env_remove("ZETA_LLM_PROTOCOL");
        cmd
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.server.requests()
    }

    /// Every request so far was well formed: no orphaned tool result.
    pub fn assert_invariants(&self) {
        assert_eq!(
            self.server.violations(),
            Vec::<String>::new(),
            "orphaned tool results"
        );
    }

    /// The real worker with the real loop, in this process (for Ops mid-task).
    pub fn spawn(
        &self,
    ) -> (
        Core,
        tokio::sync::broadcast::Receiver<Event>,
        tokio::task::JoinHandle<Result<(), zeta_core::CoreError>>,
    ) {
        let home = ZetaHome::at(self.home.path()).expect("home");
        let local = zeta_llm::LocalServer::new(self.home.path(), zeta_llm::local::Launch::Child);
        let workdir = self.home.path().to_path_buf();
        let mcp = zeta_app::agent::mcp_manager(&home);
        let agent = zeta_app::agent::configured_agent(&home, local, mcp, workdir)
            .expect("configure the agent");
        spawn_worker(home, agent, WorkerOptions::default()).expect("spawn worker")
    }
}

pub fn provider_section(server: &ScriptedServer, wire: Wire, proto: Proto) -> Value {
    let (kind, base) = match wire {
        Wire::OpenAi => ("openai", server.openai_base_url()),
        Wire::Anthropic => ("anthropic", server.base_url()),
        Wire::Ollama => ("ollama", server.base_url()),
    };
    json!({
        "kind": kind,
        "baseUrl": base,
        "model": "scripted",
        "protocol": if proto == Proto::Native { "tools" } else { "json" },
        "stream": true,
        "idleTimeoutMs": 2000,
        "maxAttempts": 3,
    })
}

/// Events printed by `zeta run --json`, one per line.
pub fn events(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The task `zeta run` printed, which must have ended `done`.
pub fn done_task(run: &Output) -> Value {
    let task = finished_task(run);
    assert_eq!(
        task["status"],
        "done",
        "{task}\nstderr: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    task
}

/// The finished task from `zeta run --json` output.
pub fn finished_task(out: &Output) -> Value {
    events(out)
        .into_iter()
        .rev()
        .find(|e| e["type"] == "taskFinished")
        .map(|e| e["task"].clone())
        .unwrap_or_else(|| {
            panic!(
                "no taskFinished event; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
}

/// All of a request's text, for `contains` checks.
pub fn text_of(r: &Recorded) -> String {
    r.body.to_string()
}

/// What a request's messages say, joined, as the model reads them (quotes unescaped).
pub fn said_in(r: &Recorded) -> String {
    r.body["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// Whether the request offered tools or asked for structured output.
pub fn offers_tools_or_schema(r: &Recorded) -> bool {
    let b = &r.body;
    b.get("tools")
        .is_some_and(|t| t.as_array().is_some_and(|a| !a.is_empty()))
        || b.get("response_format").is_some()
        || b.get("format").is_some()
}

/// A request that can only be answered: no tools, and a structured-output schema, where
/// one is sent, that holds nothing but `reply`.
pub fn offers_only_an_answer(r: &Recorded) -> bool {
    let b = &r.body;
    let no_tools = b
        .get("tools")
        .is_none_or(|t| t.as_array().is_some_and(|a| a.is_empty()));
    // OpenAI-style servers take `response_format`, Ollama `format`.
    let schema_ok = match b.get("response_format").or_else(|| b.get("format")) {
        None => true,
        Some(schema) => {
            let schema = schema.to_string();
            schema.contains("\"reply\"")
                && ["\"command\"", "\"done\"", "\"tool\"", "\"args\""]
                    .iter()
                    .all(|k| !schema.contains(k))
        }
    };
    no_tools && schema_ok
}

pub fn label(wire: Wire, proto: Proto) -> String {
    format!("{wire:?}/{proto:?}")
}

pub fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

/// A folder outside the temporary folders, which confined commands may write whole: the
/// target folder's, or `~/.cache/zeta-tests` when the checkout itself lies in /tmp.
pub fn outside_tmp() -> tempfile::TempDir {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let in_tmp = zeta_core::policy::writable::TEMPORARY.iter().any(|t| {
        target
            .canonicalize()
            .unwrap_or(target.to_path_buf())
            .starts_with(t)
    });
    let base = if in_tmp {
        Path::new(&std::env::var_os("HOME").expect("HOME")).join(".cache/zeta-tests")
    } else {
        target.to_path_buf()
    };
    std::fs::create_dir_all(&base).expect("a test folder outside /tmp");
    tempfile::tempdir_in(base).expect("a test folder outside /tmp")
}

/// The real `zeta` with `args`, in the setup's home, with `stdin` typed on its input (an
/// answer on the terminal, a key piped in); no API key from the environment.
pub fn zeta_with_stdin(s: &Setup, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(args)
        .env("ZETA_HOME", s.home.path())
        .env("HOME", s.home.path())
        .env_remove("ZETA_LLM_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("zeta");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("zeta output")
}

/// The audit log as (tool, decision, decided by), from `zeta audit --json`.
pub fn audit_rows(s: &Setup) -> Vec<(String, String, String)> {
    let out = s.zeta(&["audit", "--json"]);
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).expect("audit json");
    rows.iter()
        .map(|e| {
            let field = |k: &str| e[k].as_str().unwrap_or("").to_string();
            (field("tool"), field("decision"), field("decidedBy"))
        })
        .collect()
}

/// A model that asks to `touch` a file in a fresh folder, then answers `reply`, in `ask`
/// mode (OpenAI wire, native calls): the folder, the file it would make, the setup.
pub async fn touch_in_ask_mode(reply: &str) -> (tempfile::TempDir, std::path::PathBuf, Setup) {
    let work = tempfile::tempdir().expect("work");
    let made = work.path().join("made.txt");
    let steps = vec![
        Step::call(
            "shell",
            json!({"command": format!("touch {}", made.display())}),
        ),
        Step::text(reply),
    ];
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Native,
        steps,
        json!({"permissions": {"mode": "ask"}}),
    )
    .await;
    (work, made, s)
}

/// The tool results the model was sent (OpenAI wire), in order.
pub fn tool_results(s: &Setup) -> Vec<String> {
    let requests = s.requests();
    let Some(last) = requests.last() else {
        return Vec::new();
    };
    last.body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The JSON a test application wrote to `out`.
pub fn saved(out: &Path) -> Value {
    let text =
        std::fs::read_to_string(out).unwrap_or_else(|e| panic!("the form wrote no file: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON: {e}: {text}"))
}
