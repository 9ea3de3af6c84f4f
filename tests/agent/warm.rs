//! One warm model server per Zeta home: two `zeta run`s load the model once (the second
//! uses the server the first left running under its keeper), `zeta local-server stop` and
//! the idle time each end the keeper and the server, and a command uses the server the
//! app (here: the real worker in this process) already runs. The server is
//! `fake-llama-server`, a stand-in with llama-server's command line that logs each model
//! load and passes requests on to the scripted model server.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zeta_llm::local::shared;
use zeta_scripted_llm::Wire;

use crate::harness::{answer, done_task, script, Proto, Setup};

fn fake_server() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agent/fake-llama-server")
}

fn local_settings(keep_warm_secs: u32) -> Value {
    // The answers are final: no verification turn between them.
    json!({"verify": "never", "provider": {
        "kind": "local", "baseUrl": "", "model": "m.gguf", "stream": false,
        "keepWarmSecs": keep_warm_secs,
    }})
}

async fn setup(replies: &[&str], keep_warm_secs: u32) -> Setup {
    let turns: Vec<_> = replies.iter().map(|r| answer(*r)).collect();
    let s = Setup::with_settings(
        Wire::OpenAi,
        Proto::Json,
        script(&turns, Proto::Json),
        local_settings(keep_warm_secs),
    )
    .await;
    std::fs::create_dir_all(s.home.path().join("models")).expect("models");
    std::fs::write(s.home.path().join("models/m.gguf"), b"GGUF fake weights").expect("model");
    s
}

fn zeta(s: &Setup, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(args)
        .env("ZETA_HOME", s.home.path())
        .env("HOME", s.home.path())
        .env("ZETA_LLAMA_SERVER", fake_server())
        .env("FAKE_LLAMA_UPSTREAM", s.server.openai_base_url())
        .env_remove("ZETA_LLM_PROVIDER")
        .env_remove("ZETA_LLM_BASE_URL")
        .output()
        .expect("run zeta")
}

fn loads(home: &Path) -> usize {
    std::fs::read_to_string(home.join("logs/local-server.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("loading model"))
        .count()
}

fn server_pid(home: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(home.join("local-server.json")).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v["pid"].as_u64().and_then(|p| u32::try_from(p).ok())
}

/// Waits up to `limit` for `pid` to end.
fn ended_within(pid: u32, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while shared::alive(pid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    true
}

/// Ends, by PID, a keeper a failed test left running.
struct EndKeeper(PathBuf);

impl Drop for EndKeeper {
    fn drop(&mut self) {
        if let Some(pid) = shared::keeper_pid(&self.0).filter(|p| shared::alive(*p)) {
            let _ = shared::stop_keeper(pid);
        }
    }
}

fn reply(out: &Output) -> String {
    done_task(out)["reply"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_commands_share_one_warm_server_that_stop_ends() {
    let s = setup(&["first answer", "second answer"], 60).await;
    let home = s.home.path().to_path_buf();
    let _end = EndKeeper(home.clone());

    assert_eq!(reply(&zeta(&s, &["run", "--json", "one"])), "first answer");
    let server = server_pid(&home).expect("the server runs after the first command");
    let keeper = shared::keeper_pid(&home).expect("a keeper holds it");
    assert!(shared::alive(server) && shared::alive(keeper));

    assert_eq!(reply(&zeta(&s, &["run", "--json", "two"])), "second answer");
    assert_eq!(loads(&home), 1, "the second command loaded the model again");
    assert_eq!(
        server_pid(&home),
        Some(server),
        "the same server served both"
    );
    assert_eq!(s.requests().len(), 2);
    for r in s.requests() {
        // llama-server keeps the prompt; a runaway reply is capped.
        assert_eq!(r.body["cache_prompt"], true, "{}", r.body);
        assert_eq!(r.body["max_tokens"], 768, "{}", r.body);
        assert_eq!(r.body["temperature"], 0);
    }

    let out = zeta(&s, &["local-server", "stop"]);
    assert!(out.status.success(), "{out:?}");
    assert!(ended_within(keeper, Duration::from_secs(5)), "the keeper");
    assert!(ended_within(server, Duration::from_secs(5)), "the server");
    assert!(!home.join("local-server.json").exists());
    let out = zeta(&s, &["local-server", "stop"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no model server is kept warm"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_idle_time_ends_the_kept_server_and_zero_keeps_none() {
    let s = setup(&["kept", "not kept"], 2).await;
    let home = s.home.path().to_path_buf();
    let _end = EndKeeper(home.clone());
    assert_eq!(reply(&zeta(&s, &["run", "--json", "one"])), "kept");
    let server = server_pid(&home).expect("the server runs after the command");
    let keeper = shared::keeper_pid(&home).expect("a keeper");
    // Two seconds unused, checked every half second: well inside ten.
    assert!(ended_within(keeper, Duration::from_secs(10)), "the keeper");
    assert!(ended_within(server, Duration::from_secs(5)), "the server");

    // keepWarmSecs 0: the server is the command's own child and ends with it.
    let mut settings: Value = serde_json::from_str(
        &std::fs::read_to_string(home.join("settings.json")).expect("settings"),
    )
    .expect("json");
    settings["provider"]["keepWarmSecs"] = json!(0);
    std::fs::write(home.join("settings.json"), settings.to_string()).expect("settings");
    let before = shared::keeper_pid(&home);
    assert_eq!(reply(&zeta(&s, &["run", "--json", "two"])), "not kept");
    assert_eq!(loads(&home), 2);
    assert!(
        !home.join("local-server.json").exists(),
        "a server outlived its command"
    );
    assert_eq!(shared::keeper_pid(&home), before, "no new keeper");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_uses_the_server_the_app_runs() {
    let s = setup(&["from the app", "from the command"], 60).await;
    let home = s.home.path().to_path_buf();
    let _end = EndKeeper(home.clone());
    // The app's way: a server that is this process's child.
    let app = zeta_llm::LocalServer::new(&home, zeta_llm::local::Launch::Child);
    let spec = zeta_llm::local::LocalSpec {
        model: home.join("models/m.gguf"),
        context: 4096,
        threads: 1,
        keep_warm: Duration::from_secs(60),
    };
    std::env::set_var("FAKE_LLAMA_UPSTREAM", s.server.openai_base_url());
    let program = zeta_llm::local::ServerProgram::from_path(fake_server()).expect("program");
    app.ensure(&spec, &program).await.expect("the app's server");
    let server = server_pid(&home).expect("the app's server is described");

    assert_eq!(
        reply(&zeta(&s, &["run", "--json", "one"])),
        "from the app",
        "the scripted replies come in order"
    );
    assert_eq!(loads(&home), 1, "the command loaded the model again");
    assert_eq!(
        shared::keeper_pid(&home),
        None,
        "the command started a keeper"
    );
    // Quitting the app ends its server.
    tokio::task::block_in_place(|| app.stop());
    assert!(ended_within(server, Duration::from_secs(5)));
}
