//! What write confinement costs per command: the same `shell` call (`true`) run
//! unconfined and under Landlock, interleaved in one run, with the rules built from this
//! user's real home each time (as every confined call does). Also the cost of building
//! the rules alone, of the seal (a session of its own, TIOCSTI refused) and of the
//! doors (the desktop session hidden: `doors`) on a bare process start.
//!
//! Run: `cargo bench -p zeta-tools --bench confine`. Prints median, min and max of 60
//! calls each.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use zeta_core::policy::Writable;
use zeta_core::tool::{Tool, ToolContext};
use zeta_core::CancelToken;
use zeta_tools::confine::{rules, support, Support};
use zeta_tools::shell::Shell;

fn stats(mut v: Vec<f64>) -> String {
    v.sort_by(|a, b| a.total_cmp(b));
    format!(
        "median {:.2} ms (min {:.2}, max {:.2}, {} runs)",
        v[v.len() / 2],
        v[0],
        v[v.len() - 1],
        v.len()
    )
}

fn main() {
    if let Support::Missing(why) = support() {
        println!("confinement cannot be measured here: {why}");
        return;
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/root"));
    let writable = Arc::new(Writable::new(&home, &home, &home.join(".zeta")));
    let (_cancel, cancel) = CancelToken::new();
    let ctx = |confine: bool| ToolContext {
        cancel: cancel.clone(),
        workdir: home.clone(),
        command_timeout_ms: 10_000,
        max_output_length: 4000,
        images_supported: false,
        screenshot: Default::default(),
        on_output: Arc::new(|_: &str| {}),
        untrusted_input: false,
        confine: confine.then(|| Arc::clone(&writable)),
        keeper: None,
        session: zeta_core::tool::Session::Closed,
        at_task_end: Default::default(),
        request: "".into(),
        choose: Default::default(),
    };
    let (free, confined) = (ctx(false), ctx(true));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let call = |c: &ToolContext| {
        let start = Instant::now();
        let out = runtime.block_on(Shell.run(json!({"command": "true"}), c));
        assert!(out.ok, "{}", out.content);
        start.elapsed().as_secs_f64() * 1e3
    };
    call(&free);
    call(&confined);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        a.push(call(&free));
        b.push(call(&confined));
    }
    let grants = writable.grants().len();
    let build: Vec<f64> = (0..60)
        .map(|_| {
            let start = Instant::now();
            let r = rules(&writable).expect("rules");
            std::hint::black_box(r);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    println!("home {} ({grants} grants)", home.display());
    println!("shell `true`, unconfined: {}", stats(a));
    println!("shell `true`, confined:   {}", stats(b));
    println!("building the rules alone: {}", stats(build));

    // The seal every tool process gets (a session of its own, TIOCSTI refused): the same
    // `true` started bare and sealed, interleaved.
    let spawn = |sealed: bool| {
        let start = Instant::now();
        let mut command = tokio::process::Command::new("true");
        if sealed {
            zeta_tools::seal::apply(&mut command, true);
        }
        let status = runtime
            .block_on(async { command.status().await })
            .expect("true");
        assert!(status.success());
        start.elapsed().as_secs_f64() * 1e3
    };
    let (mut bare, mut sealed) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        bare.push(spawn(false));
        sealed.push(spawn(true));
    }
    println!("`true` started bare:       {}", stats(bare));
    println!("`true` started sealed:     {}", stats(sealed));

    // The doors (`doors`): the same `true` started bare, with the session closed (a user
    // and mount namespace hiding the session's sockets, and a Landlock domain), and open
    // (the domain only, unless Zeta's secrets file exists), interleaved; preparing
    // included, as every call does.
    let (folders, files) = zeta_tools::doors::session_paths();
    let doors = |session: Option<zeta_core::tool::Session>| {
        let start = Instant::now();
        let mut command = tokio::process::Command::new("true");
        if let Some(session) = session {
            let prepared = zeta_tools::doors::prepare(session).expect("doors");
            zeta_tools::doors::apply(&mut command, prepared);
        }
        let status = runtime
            .block_on(async { command.status().await })
            .expect("true");
        assert!(status.success());
        start.elapsed().as_secs_f64() * 1e3
    };
    use zeta_core::tool::Session;
    let (mut bare, mut closed, mut open) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..60 {
        bare.push(doors(None));
        closed.push(doors(Some(Session::Closed)));
        open.push(doors(Some(Session::Open)));
    }
    println!(
        "session here: {} folders, {} sockets hidden when closed",
        folders.len(),
        files.len()
    );
    println!("`true` started bare:        {}", stats(bare));
    println!("`true` with the doors closed: {}", stats(closed));
    println!("`true` with the doors open:   {}", stats(open));
}
