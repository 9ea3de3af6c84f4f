//! API keys: stored with `zeta secret set` (the OS keyring, or the owner-only file when no
//! keyring service runs, as here), sent to the provider, and never found in the logs, the
//! database, the event stream or error messages, even when the server echoes the key back.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use serde_json::json;
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

const KEY: &str = "sk-test-Zeta-4f9a2c7e1b";

fn run_logged(s: &Setup, task: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zeta"))
        .args(["run", "--json", task])
        .env("ZETA_HOME", s.home.path())
        .env("HOME", s.home.path())
        .env("RUST_LOG", "debug")
        .env_remove("ZETA_LLM_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("zeta run")
}

/// Every file under `dir`, recursively.
fn files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_key_is_used_and_never_leaks() {
    let steps = vec![
        // A server that echoes the key in its errors: retried, then a real answer.
        Step::Refuse {
            status: 500,
            message: format!("upstream rejected key {KEY}"),
        },
        Step::call("shell", json!({"command": "echo checked"})),
        Step::text("Zeta: hi"),
        // The second task: a permanent refusal that quotes the key.
        Step::Refuse {
            status: 401,
            message: format!("Incorrect API key provided: {KEY}"),
        },
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let stored = zeta_with_stdin(
        &s,
        &["secret", "set", "openai"],
        format!("{KEY}\n").as_bytes(),
    );
    assert!(stored.status.success(), "{stored:?}");
    let said = String::from_utf8_lossy(&stored.stderr).to_string();
    assert!(
        said.contains("owner-only file"),
        "the fallback is reported: {said}"
    );
    let file = s.home.path().join("secrets.json");
    let mode = std::fs::metadata(&file)
        .expect("secrets.json")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    let ok = run_logged(&s, "say hi");
    assert_eq!(finished_task(&ok)["reply"], "Zeta: hi");
    let auth: Vec<_> = s
        .requests()
        .iter()
        .filter_map(|r| {
            r.headers
                .iter()
                .find(|(k, _)| k == "authorization")
                .map(|(_, v)| v.clone())
        })
        .collect();
    assert_eq!(auth.len(), 3);
    assert!(
        auth.iter().all(|a| *a == format!("Bearer {KEY}")),
        "the stored key is sent"
    );

    let failed = run_logged(&s, "say hi again");
    let task = finished_task(&failed);
    assert_eq!(task["status"], "failed");
    let error = task["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("[redacted]"),
        "the echoed key is cut out: {error}"
    );

    let status = zeta_with_stdin(&s, &["secret", "status"], b"");
    let doctor = zeta_with_stdin(&s, &["doctor", "--json"], b"");
    // Stopped tasks leave their trace in stdout (events), stderr (logs), every file in the
    // home but the key file itself (database, WAL, logs), and the CLI's reports.
    let mut seen: Vec<(String, Vec<u8>)> = [
        ("run stdout", ok.stdout),
        ("run stderr", ok.stderr),
        ("failed stdout", failed.stdout),
        ("failed stderr", failed.stderr),
        ("secret status", status.stdout),
        ("doctor", doctor.stdout),
    ]
    .into_iter()
    .map(|(n, b)| (n.to_string(), b))
    .collect();
    for path in files(s.home.path()).into_iter().filter(|p| *p != file) {
        seen.push((
            path.display().to_string(),
            std::fs::read(&path).expect("read"),
        ));
    }
    assert!(
        seen.iter().any(|(n, _)| n.ends_with("zeta.db")),
        "the database was checked"
    );
    for (name, bytes) in &seen {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(KEY), "the key leaked into {name}");
    }
    let status = String::from_utf8_lossy(&seen[4].1).to_string();
    assert!(status.contains("a key is stored"), "{status}");

    // Removing the key stops its use.
    let removed = zeta_with_stdin(&s, &["secret", "delete", "openai"], b"");
    assert!(removed.status.success());
    assert!(!std::fs::read_to_string(&file).expect("file").contains(KEY));
}

/// A private session bus with a real, unlocked gnome-keyring on it; both ended by PID.
struct Keyring {
    bus: std::process::Child,
    daemon: std::process::Child,
    address: String,
    _dirs: tempfile::TempDir,
}

impl Keyring {
    fn start() -> Result<Self, String> {
        let dirs = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("dbus-daemon: {e}"))?;
        let mut line = String::new();
        let stdout = bus.stdout.take().ok_or("no dbus-daemon stdout")?;
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
            .map_err(|e| e.to_string())?;
        let address = line.trim().to_string();
        let runtime = dirs.path().join("run");
        std::fs::create_dir_all(&runtime).map_err(|e| e.to_string())?;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| e.to_string())?;
        let mut daemon = Command::new("gnome-keyring-daemon")
            .args(["--foreground", "--unlock", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("XDG_DATA_HOME", dirs.path().join("data"))
            .env("XDG_RUNTIME_DIR", &runtime)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("gnome-keyring-daemon: {e}"))?;
        // The unlock password, then end of input.
        if let Some(mut stdin) = daemon.stdin.take() {
            let _ = stdin.write_all(b"zeta-test-password");
        }
        Ok(Self {
            bus,
            daemon,
            address,
            _dirs: dirs,
        })
    }
}

impl Drop for Keyring {
    fn drop(&mut self) {
        for child in [&mut self.daemon, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// With a Secret Service running, the key goes to the keyring and no file is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_secret_service_the_key_goes_to_the_os_keyring() {
    let missing = ["dbus-daemon", "gnome-keyring-daemon"]
        .into_iter()
        .find(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .map(|o| !o.status.success())
                .unwrap_or(true)
        });
    if let Some(tool) = missing {
        let why = format!("{tool} is not installed (scripts/setup.sh --tests installs it)");
        zeta_test_support::cannot_run(zeta_test_support::Needs::Desktop, "keyring test", why);
        return;
    }
    let keyring = Keyring::start().expect("start a private keyring");
    let s = Setup::new(
        Wire::Anthropic,
        Proto::Native,
        vec![Step::text("Zeta: via keyring")],
    )
    .await;
    let with_bus = |args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zeta"))
            .args(args)
            .env("ZETA_HOME", s.home.path())
            .env("HOME", s.home.path())
            .env("DBUS_SESSION_BUS_ADDRESS", &keyring.address)
            .env_remove("ZETA_LLM_API_KEY")
            .env_remove("ANTHROPIC_API_KEY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("zeta");
        if let Some(mut input) = child.stdin.take() {
            let _ = input.write_all(stdin.as_bytes());
        }
        child.wait_with_output().expect("zeta output")
    };
    // The daemon takes a moment to claim its bus name and set up its collection (longer
    // on a busy machine). `secret status` only looks, so polling it writes nothing.
    let ready = (0..120).any(|_| {
        let status = with_bus(&["secret", "status"], "");
        let ok = String::from_utf8_lossy(&status.stdout).contains("the OS keyring");
        if !ok {
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
        ok
    });
    assert!(
        ready,
        "the private keyring did not become usable within 30 s"
    );
    let stored = with_bus(&["secret", "set", "anthropic"], KEY);
    let said = String::from_utf8_lossy(&stored.stderr).to_string();
    assert!(said.contains("in the OS keyring"), "{said}");
    assert!(
        !s.home.path().join("secrets.json").exists(),
        "no file when the keyring works"
    );
    let out = with_bus(&["run", "--json", "hello"], "");
    assert_eq!(finished_task(&out)["reply"], "Zeta: via keyring");
    let sent = s.requests()[0]
        .headers
        .iter()
        .find(|(k, _)| k == "x-api-key")
        .map(|(_, v)| v.clone());
    assert_eq!(sent.as_deref(), Some(KEY), "the key came from the keyring");
    assert!(!String::from_utf8_lossy(&out.stdout).contains(KEY));
    assert!(!String::from_utf8_lossy(&out.stderr).contains(KEY));
}
