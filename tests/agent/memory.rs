//! Memory and scheduling end to end: a fact saved in one task is found by memory_search
//! in a later task after a restart (every `zeta run` is a new process), and is offered in
//! that task's first turn; a scheduled job fires once per due time and not again after a
//! restart.

use std::time::Duration;

use serde_json::{json, Value};
use zeta_core::{Event, Op};
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_fact_is_found_in_a_later_task_after_a_restart() {
    let steps = vec![
        Step::call(
            "memory_save",
            json!({"text": "The user's backup drive is mounted at /mnt/vault-7", "tags": "backup drive"}),
        ),
        Step::text("Zeta: noted."),
        Step::call("memory_search", json!({"query": "backup drive"})),
        Step::text("Zeta: your backups go to /mnt/vault-7."),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let first = s.zeta_run("Remember that my backup drive is /mnt/vault-7");
    assert_eq!(finished_task(&first)["reply"], "Zeta: noted.");
    // A new process: everything it knows comes from the database.
    let second = s.zeta_run("Where is my backup drive?");
    assert_eq!(
        finished_task(&second)["reply"],
        "Zeta: your backups go to /mnt/vault-7."
    );
    let requests = s.requests();
    let opening = text_of(&requests[2]);
    assert!(
        opening.contains("Saved facts that may help"),
        "recalled in the first turn"
    );
    assert!(
        opening.contains("Recent tasks (your long-term notes)"),
        "the summary opens the task"
    );
    let search_result = text_of(&requests[3]);
    assert!(
        search_result.contains("/mnt/vault-7"),
        "memory_search found it"
    );

    let listed: Vec<Value> =
        serde_json::from_slice(&s.zeta(&["memory", "list", "--json"]).stdout).expect("list json");
    assert_eq!(listed.len(), 1);
    let id = listed[0]["id"].as_i64().expect("id").to_string();
    assert!(s.zeta(&["memory", "forget", &id]).status.success());
    let listed: Vec<Value> =
        serde_json::from_slice(&s.zeta(&["memory", "list", "--json"]).stdout).expect("list json");
    assert!(listed.is_empty(), "the user can delete what is remembered");
    s.assert_invariants();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduled_job_fires_once_and_not_again_after_a_restart() {
    let due = chrono::Local::now() + chrono::Duration::seconds(3);
    let at = due.format("%Y-%m-%d %H:%M:%S").to_string();
    let steps = vec![
        Step::call(
            "schedule_task",
            json!({"message": "tell me the time", "at": at}),
        ),
        Step::text("Zeta: scheduled."),
        Step::text("Zeta: it is time."),
    ];
    let s = Setup::new(Wire::OpenAi, Proto::Native, steps).await;
    let (core, mut events, handle) = s.spawn();
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "remind me in 3 seconds".into(),
    })
    .expect("op");
    let mut finished = Vec::new();
    while finished.len() < 2 {
        match tokio::time::timeout(Duration::from_secs(20), events.recv()).await {
            Ok(Ok(Event::TaskFinished { task })) => finished.push(task),
            Ok(Ok(_)) => {}
            other => panic!("no event: {other:?}"),
        }
    }
    assert_eq!(finished[0].reply.as_deref(), Some("Zeta: scheduled."));
    assert_eq!(finished[1].sender, "scheduler");
    assert_eq!(finished[1].message, "tell me the time");
    assert_eq!(finished[1].reply.as_deref(), Some("Zeta: it is time."));
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");

    // A restart: the job is spent; nothing fires again.
    let (core, _events, handle) = s.spawn();
    tokio::time::sleep(Duration::from_secs(2)).await;
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    let tasks: Vec<Value> =
        serde_json::from_slice(&s.zeta(&["queue", "--json"]).stdout).expect("queue json");
    let from_scheduler = tasks.iter().filter(|t| t["sender"] == "scheduler").count();
    assert_eq!(from_scheduler, 1, "once per due time: {tasks:?}");
    let jobs: Vec<Value> =
        serde_json::from_slice(&s.zeta(&["schedule", "list", "--json"]).stdout).expect("jobs json");
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0]["enabled"], false);
}
