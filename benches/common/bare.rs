//! The bare planner loop the local-model benches compare Zeta with, and its own server:
//! a short prompt, the three-key JSON plan constrained by the server's `json_schema`,
//! `bash -c` for each command, nothing else. Shared by `local_agent` and `everyday`.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support;

/// The bare loop: at most 8 steps; returns the reply and the steps taken.
pub fn bare(port: u16, work: &Path, request: &str) -> (String, usize) {
    let mut messages = vec![
        json!({"role": "system", "content": support::BARE_PROMPT}),
        json!({"role": "user", "content": request}),
    ];
    for step in 1..=8 {
        let body = json!({
            "messages": messages, "temperature": 0, "max_tokens": 768, "cache_prompt": true,
            "response_format": {"type": "json_schema", "json_schema": {"name": "plan", "schema": support::bare_schema()}},
        });
        let Ok(reply) = support::post(port, &body) else {
            return (String::new(), step);
        };
        let content = reply["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let plan: Value = serde_json::from_str(&content).unwrap_or(Value::Null);
        let command = plan["command"]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_string();
        if command.is_empty() {
            return (plan["reply"].as_str().unwrap_or_default().to_string(), step);
        }
        let out = Command::new("bash")
            .args(["-c", &command])
            .current_dir(work)
            .env("HOME", work)
            .output()
            .expect("bash");
        let mut printed = String::from_utf8_lossy(&out.stdout).to_string();
        printed.push_str(&String::from_utf8_lossy(&out.stderr));
        let printed: String = printed.chars().take(2000).collect();
        messages.push(json!({"role": "assistant", "content": content}));
        let status = match out.status.code() {
            Some(0) => String::new(),
            code => format!(" (exit status {})", code.unwrap_or(-1)),
        };
        messages.push(
            json!({"role": "user", "content": format!("Output of {command}{status}:\n{printed}")}),
        );
    }
    (String::new(), 8)
}

pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The bare loop's server (see the module doc), ended by its PID when dropped.
pub struct BareServer {
    child: Child,
    pub port: u16,
}

impl BareServer {
    pub fn start(local: &support::Local, context: u32, log: &Path) -> Self {
        let program = zeta_llm::local::ServerProgram::from_path(local.server.clone())
            .expect("the server program");
        let spec = zeta_llm::local::LocalSpec {
            model: local.model.clone(),
            context,
            threads: zeta_llm::local::default_threads(),
            keep_warm: Duration::ZERO,
        };
        let port = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let file = std::fs::File::create(log).expect("the bare server's log");
        let err = file.try_clone().expect("the log");
        let child = program
            .command(&spec, port, None, Stdio::from(file), Stdio::from(err))
            .spawn()
            .expect("the bare loop's server");
        let started = Instant::now();
        while !models_answer(port) {
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the bare loop's server did not start"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        Self { child, port }
    }
}

impl Drop for BareServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET /v1/models` answers 200: the model is loaded.
pub fn models_answer(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    if stream
        .write_all(b"GET /v1/models HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.ends_with(b"200")
}

/// The context window Zeta's home serves (`provider.contextWindow`).
pub fn context_window(home: &Path) -> u32 {
    std::fs::read_to_string(home.join("settings.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["provider"]["contextWindow"].as_u64())
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(8192)
}

/// Copies the bare loop's server log (`bare_log`) and Zeta's (in the home under `dir`),
/// which hold each request's prompt tokens and times, out of the bench's temporary home
/// as `/tmp/zeta-<bench>-bare-server.log` and `/tmp/zeta-<bench>-server.log`.
pub fn keep_server_logs(bench: &str, dir: &Path, bare_log: &Path) {
    let zeta_log = dir.join("zeta/logs/local-server.log");
    for (from, name, whose) in [
        (
            bare_log.to_path_buf(),
            "bare-server",
            "the bare loop's server's",
        ),
        (zeta_log, "server", "the server's"),
    ] {
        let kept = std::env::temp_dir().join(format!("zeta-{bench}-{name}.log"));
        if std::fs::copy(&from, &kept).is_ok() {
            println!("{whose} log: {}", kept.display());
        }
    }
}
