//! Does speculative decoding make Zeta's local model answer faster on this machine? Three
//! llama.cpp servers with Zeta's own flags serve Qwen2.5-Coder-1.5B side by side: one
//! alone, one with Qwen2.5-Coder-0.5B as its draft (`--model-draft`, `--spec-type
//! draft-simple`) and one drafting from n-grams of its own context (`ngram-simple`); the same
//! planner requests (a first step and an answer after a command's output, structured by
//! the plan's JSON schema, as Zeta sends them) go to each in turn, alternating which goes
//! first, and the wall time of each reply and the server's own timings are compared.
//!
//! `cargo bench --profile dev --bench draft_model` (needs `scripts/local-model.sh` and the
//! 0.5B model: `ZETA_DRAFT_MODEL=FILE.gguf`, else `qwen2.5-coder-0.5b-instruct-q4_k_m.gguf`
//! beside the 1.5B model; about 5 minutes on 2 cores). `ZETA_BENCH_ROUNDS` (default 3).

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/local_model/support.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A request, and optionally the command the model chose with the output it printed
/// (the answer step).
const CONVERSATIONS: [(&str, Option<(&str, &str)>); 8] = [
    ("How much free disk space do I have?", None),
    (
        "How much free disk space do I have?",
        Some((
            "df -h /",
            "Filesystem Size Used Avail Use% Mounted on\n/dev/vda 252G 11G 229G 5% /",
        )),
    ),
    ("Which file in ~/data is the largest?", None),
    (
        "Which file in ~/data is the largest?",
        Some(("ls -S ~/data | head -1", "big.bin")),
    ),
    ("How many lines in ~/app.log contain ERROR?", None),
    (
        "What does the Gadget cost according to ~/shop/prices.txt?",
        Some(("grep -i gadget ~/shop/prices.txt", "Gadget 19.99")),
    ),
    (
        "Count the .log files in ~/logs and write the number into ~/count.txt",
        None,
    ),
    (
        "Which Linux kernel version is running?",
        Some(("uname -r", "6.1.0-28-amd64")),
    ),
];

fn body(request: &str, step: Option<(&str, &str)>) -> Value {
    let mut messages = vec![
        json!({"role": "system", "content": support::BARE_PROMPT}),
        json!({"role": "user", "content": request}),
    ];
    if let Some((command, output)) = step {
        messages.push(json!({"role": "assistant", "content":
            json!({"command": command, "reply": "", "done": false}).to_string()}));
        messages.push(json!({"role": "user", "content": format!("✓ shell {command}\n{output}")}));
    }
    json!({
        "messages": messages, "temperature": 0, "max_tokens": 256, "cache_prompt": true,
        "response_format": {"type": "json_schema", "json_schema": {"name": "plan", "schema": support::bare_schema()}},
    })
}

/// A llama-server this bench started; ended by its PID when dropped.
struct Server {
    child: Child,
    port: u16,
    name: &'static str,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// How a server guesses ahead: not at all, with a draft model, or from n-grams of its own
/// context (prompt lookup: a command or an output copied into the answer).
#[derive(Clone, Copy)]
enum Spec<'a> {
    Alone,
    Draft(&'a Path),
    Ngram,
}

fn start(program: &Path, model: &Path, spec: Spec, name: &'static str) -> Server {
    let port = free_port();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    // Zeta's own flags (zeta-llm local/program.rs): generation on all cores but one,
    // prompt evaluation on every core, one slot.
    let threads = cores.saturating_sub(1).max(1).to_string();
    let mut cmd = Command::new(program);
    cmd.arg("--model")
        .arg(model)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--threads", &threads, "--threads-batch", &cores.to_string()])
        .args(["--ctx-size", "4096", "--parallel", "1", "--no-webui"]);
    // llama.cpp speculates only when told which way (`--spec-type`, default none): with
    // `--model-draft` alone the draft model loads and drafts nothing (measured: 0 drafted).
    match spec {
        Spec::Alone => {}
        Spec::Draft(draft) => {
            cmd.arg("--model-draft")
                .arg(draft)
                .args(["--spec-type", "draft-simple"])
                .args(["--threads-draft", &threads])
                .args(["--threads-batch-draft", &cores.to_string()]);
        }
        Spec::Ngram => {
            cmd.args(["--spec-type", "ngram-simple"])
                .args(["--spec-ngram-simple-size-n", "4"])
                .args(["--spec-ngram-simple-size-m", "16"]);
        }
    }
    let log = std::env::temp_dir().join(format!("zeta-draft-bench-{name}.log"));
    let out = std::fs::File::create(&log).expect("log");
    let child = cmd
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("log"))
        .stderr(out)
        .spawn()
        .expect("start llama-server");
    let server = Server { child, port, name };
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        // A loading server answers 503 with an error body: ready means a reply.
        let ready = support::post(port, &body("Say OK.", None))
            .is_ok_and(|reply| reply.get("choices").is_some());
        if ready {
            return server;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    panic!("{name} did not start: see {}", log.display());
}

struct Sample {
    secs: f64,
    generated: u64,
    predicted_ms: f64,
    drafted: u64,
    accepted: u64,
    content: String,
}

fn ask(server: &Server, body: &Value) -> Sample {
    let started = Instant::now();
    let reply = support::post(server.port, body).expect("a reply");
    assert!(reply.get("choices").is_some(), "{}: {reply}", server.name);
    let secs = started.elapsed().as_secs_f64();
    let t = &reply["timings"];
    Sample {
        secs,
        generated: t["predicted_n"].as_u64().unwrap_or_default(),
        predicted_ms: t["predicted_ms"].as_f64().unwrap_or_default(),
        drafted: t["draft_n"].as_u64().unwrap_or_default(),
        accepted: t["draft_n_accepted"].as_u64().unwrap_or_default(),
        content: reply["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn draft_path(main: &Path) -> PathBuf {
    std::env::var_os("ZETA_DRAFT_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| main.with_file_name("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"))
}

fn main() {
    let Some(local) = support::available() else {
        return;
    };
    if !matches!(
        zeta_llm::local::ServerProgram::find(),
        Ok(zeta_llm::local::ServerProgram::LlamaServer(_))
    ) {
        println!("SKIPPED: the draft model needs llama.cpp's own llama-server");
        return;
    }
    let draft = draft_path(&local.model);
    if !draft.is_file() {
        println!(
            "SKIPPED: no draft model at {} (set ZETA_DRAFT_MODEL)",
            draft.display()
        );
        return;
    }
    let rounds: usize = std::env::var("ZETA_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let alone = start(&local.server, &local.model, Spec::Alone, "alone");
    let drafted = start(&local.server, &local.model, Spec::Draft(&draft), "draft");
    let ngram = start(&local.server, &local.model, Spec::Ngram, "ngram");
    let mut samples: Vec<(&str, usize, Sample)> = Vec::new();
    for round in 0..rounds {
        for (i, (request, step)) in CONVERSATIONS.iter().enumerate() {
            let body = body(request, *step);
            // Each server first, second and third in turn.
            let mut order = [&alone, &drafted, &ngram];
            order.rotate_left((round + i) % 3);
            for server in order {
                let s = ask(server, &body);
                println!(
                    "round {round} request {i} {:<6} {:>6.2} s {:>3} tokens {:>6.1} tokens/s drafted {:>3} accepted {:>3}  {}",
                    server.name,
                    s.secs,
                    s.generated,
                    s.generated as f64 * 1000.0 / s.predicted_ms.max(1.0),
                    s.drafted,
                    s.accepted,
                    s.content.replace('\n', " ")
                );
                samples.push((server.name, i, s));
            }
        }
    }
    println!("\n| server | median s per reply | generation tokens/s | drafted | accepted |");
    println!("|---|---|---|---|---|");
    for name in ["alone", "draft", "ngram"] {
        let mine: Vec<&Sample> = samples
            .iter()
            .filter(|(n, _, _)| *n == name)
            .map(|(_, _, s)| s)
            .collect();
        let generated: u64 = mine.iter().map(|s| s.generated).sum();
        let ms: f64 = mine.iter().map(|s| s.predicted_ms).sum();
        let drafted: u64 = mine.iter().map(|s| s.drafted).sum();
        let accepted: u64 = mine.iter().map(|s| s.accepted).sum();
        println!(
            "| {name} | {:.2} | {:.1} | {drafted} | {accepted} |",
            median(mine.iter().map(|s| s.secs).collect()),
            generated as f64 * 1000.0 / ms.max(1.0),
        );
    }
    // The same replies either way: speculative decoding must not change what is said.
    let differ = CONVERSATIONS
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let of = |name: &str| {
                samples
                    .iter()
                    .find(|(n, j, _)| *n == name && j == i)
                    .map(|(_, _, s)| s.content.clone())
            };
            of("alone") != of("draft") || of("alone") != of("ngram")
        })
        .count();
    println!("requests whose reply differed between the servers: {differ}");
}
