//! The warm-up against a scripted model: one request where the opening a task would send
//! holds still, a second where the computer changed while the first was answered (the
//! model server among the programs) and the server stays, and never a second where it
//! does not stay (setup's warm-up, whose first opening the first `zeta run` sends).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::scripted::{settings, text, Scripted};
use crate::agent_loop::{AgentLoop, FixedModel};
use crate::policy::PermissionMode;
use crate::tool::ToolRegistry;

/// Warms a loop whose computer reads `computer(n)` at its n-th look; the requests sent.
async fn warm(stays: bool, computer: fn(usize) -> String) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let model = Scripted::new(vec![Ok(text("a")), Ok(text("b")), Ok(text("c"))], true);
    let looks = Arc::new(AtomicUsize::new(0));
    let agent = AgentLoop::new(
        FixedModel(Arc::clone(&model)),
        ToolRegistry::new(),
        dir.path().join("souls"),
        PathBuf::from(dir.path()),
    )
    .with_environment(Arc::new(move || {
        computer(looks.fetch_add(1, Ordering::SeqCst))
    }));
    agent
        .warm(settings(PermissionMode::Ask), stays)
        .await
        .expect("warmed");
    let sent = model.requests.lock().unwrap().len();
    (0..sent).map(|n| model.request_text(n)).collect()
}

fn before_and_after_the_server(look: usize) -> String {
    match look {
        0 => "Programs using the most memory: zeta".into(),
        _ => "Programs using the most memory: llama-server, zeta".into(),
    }
}

#[tokio::test]
async fn a_server_that_stays_is_warmed_with_the_computer_as_it_is_after_its_start() {
    let sent = warm(true, before_and_after_the_server).await;
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(!sent[0].contains("llama-server"), "{}", sent[0]);
    assert!(sent[1].contains("llama-server, zeta"), "{}", sent[1]);
}

#[tokio::test]
async fn an_opening_that_holds_still_is_sent_once() {
    let sent = warm(true, |_| "Programs using the most memory: zeta".into()).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
}

#[tokio::test]
async fn setup_s_warm_up_keeps_the_opening_its_first_task_will_send() {
    let sent = warm(false, before_and_after_the_server).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(!sent[0].contains("llama-server"), "{}", sent[0]);
}
