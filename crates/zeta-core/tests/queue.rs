//! Queue semantics through the real worker and a real SQLite file: concurrent producers,
//! FIFO processing, context chaining, and recovery after a worker is SIGKILLed mid-task.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use zeta_core::{
    spawn_worker, Agent, AgentOutcome, Event, Op, TaskContext, TaskQueue, TaskStatus,
    WorkerOptions, WorkerState, ZetaHome,
};

/// Replies `reply to <message>` after a short pause, so tasks overlap with enqueues.
struct Echo;

impl Agent for Echo {
    async fn run(&self, ctx: TaskContext) -> AgentOutcome {
        tokio::time::sleep(Duration::from_millis(2)).await;
        AgentOutcome::Done {
            reply: format!("reply to {}", ctx.task.message),
        }
    }
}

/// Runs until cancelled, then reports how far it got.
struct UntilCancelled;

impl Agent for UntilCancelled {
    async fn run(&self, mut ctx: TaskContext) -> AgentOutcome {
        ctx.cancel.cancelled().await;
        AgentOutcome::Cancelled {
            progress: format!("stopped {}", ctx.task.message),
        }
    }
}

fn home() -> (tempfile::TempDir, ZetaHome) {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = ZetaHome::at(dir.path()).expect("home");
    (dir, home)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_producers_are_processed_fifo_with_chained_context() {
    let (_dir, home) = home();
    const THREADS: usize = 5;
    const EACH: usize = 20;
    let barrier = Arc::new(Barrier::new(THREADS));
    let producers: Vec<_> = (0..THREADS)
        .map(|t| {
            let db = home.database_file();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let queue = TaskQueue::open(&db).expect("open per producer");
                barrier.wait();
                (0..EACH)
                    .map(|i| {
                        queue
                            .enqueue("test", &format!("t{t} m{i}"))
                            .expect("enqueue")
                            .id
                    })
                    .collect::<Vec<i64>>()
            })
        })
        .collect();
    let per_thread: Vec<Vec<i64>> = producers
        .into_iter()
        .map(|p| p.join().expect("producer thread"))
        .collect();
    for ids in &per_thread {
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "a producer's order changed: {ids:?}"
        );
    }

    let options = WorkerOptions {
        exit_when_idle: true,
        ..WorkerOptions::default()
    };
    let (_core, mut events, handle) = spawn_worker(home.clone(), Echo, options).expect("spawn");
    handle.await.expect("join").expect("worker");

    let mut started = Vec::new();
    let mut finished = Vec::new();
    while let Ok(event) = events.try_recv() {
        match event {
            Event::TaskStarted { task } => started.push(task.id),
            Event::TaskFinished { task } => finished.push(task.id),
            _ => {}
        }
    }
    let queue = TaskQueue::open(&home.database_file()).expect("open");
    let tasks = queue.recent(1000).expect("list");
    assert_eq!(tasks.len(), THREADS * EACH, "no task lost");
    let ids: Vec<i64> = tasks.iter().map(|t| t.id).collect();
    assert_eq!(started, ids, "tasks started in enqueue order");
    assert_eq!(finished, ids, "tasks finished in enqueue order");
    let mut previous_result = String::new();
    for task in &tasks {
        assert_eq!(task.status, TaskStatus::Done);
        assert_eq!(
            task.reply.as_deref(),
            Some(format!("reply to {}", task.message).as_str())
        );
        assert_eq!(
            task.previous_context.as_deref(),
            Some(previous_result.as_str()),
            "task {} saw the result of the task before it",
            task.id
        );
        previous_result = task.result.clone().expect("done task has a result");
        assert!(previous_result.starts_with(&format!("User asked: {}", task.message)));
    }
}

#[tokio::test]
async fn cancel_stops_the_running_task_and_pending_ones_never_start() {
    let (_dir, home) = home();
    let (core, mut events, handle) =
        spawn_worker(home.clone(), UntilCancelled, WorkerOptions::default()).expect("spawn");
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "one".into(),
    })
    .expect("op");
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "two".into(),
    })
    .expect("op");
    let mut finished = Vec::new();
    while finished.len() < 2 {
        match tokio::time::timeout(Duration::from_secs(10), events.recv()).await {
            Ok(Ok(Event::TaskStarted { task })) => {
                assert_eq!(task.message, "one", "only the first task may start");
                core.submit(Op::CancelTask { id: task.id + 1 })
                    .expect("cancel pending");
                core.submit(Op::CancelTask { id: task.id })
                    .expect("cancel running");
            }
            Ok(Ok(Event::TaskFinished { task })) => finished.push(task),
            Ok(Ok(_)) => {}
            other => panic!("no event in time: {other:?}"),
        }
    }
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
    let by_message = |m: &str| finished.iter().find(|t| t.message == m).expect("finished");
    assert_eq!(by_message("one").status, TaskStatus::Cancelled);
    assert_eq!(by_message("one").reply.as_deref(), Some("stopped one"));
    assert_eq!(by_message("two").status, TaskStatus::Cancelled);
    assert_eq!(by_message("two").started_at, None);
}

#[tokio::test]
async fn a_second_worker_waits_in_standby_and_enqueues_still_work() {
    let (_dir, home) = home();
    let _held = zeta_core::lock::WorkerLock::try_acquire(&home).expect("lock");
    let (core, mut events, handle) =
        spawn_worker(home.clone(), Echo, WorkerOptions::default()).expect("spawn");
    core.submit(Op::EnqueueTask {
        sender: "test".into(),
        message: "queued".into(),
    })
    .expect("op");
    let mut saw_standby = false;
    let mut saw_queued = false;
    while !(saw_standby && saw_queued) {
        match tokio::time::timeout(Duration::from_secs(10), events.recv()).await {
            Ok(Ok(Event::WorkerStateChanged {
                state: WorkerState::Standby { holder_pid },
            })) => {
                assert_eq!(holder_pid, std::process::id().to_string());
                saw_standby = true;
            }
            Ok(Ok(Event::TaskQueued { task })) => {
                assert_eq!(task.status, TaskStatus::Pending);
                saw_queued = true;
            }
            Ok(Ok(Event::TaskStarted { .. })) => panic!("a standby worker must not run tasks"),
            Ok(Ok(_)) => {}
            other => panic!("no event in time: {other:?}"),
        }
    }
    core.submit(Op::Shutdown).expect("shutdown");
    handle.await.expect("join").expect("worker");
}

/// The example `slow_worker`, built by `cargo test` beside this test binary.
fn slow_worker_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    let path = profile_dir.join("examples").join("slow_worker");
    assert!(
        path.exists(),
        "{} is missing: run through `cargo test`",
        path.display()
    );
    path
}

fn start_slow_worker(home: &ZetaHome, ms: u64) -> Child {
    Command::new(slow_worker_binary())
        .env("ZETA_HOME", home.root())
        .env("SLOW_WORKER_MS", ms.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn slow_worker")
}

#[test]
fn sigkill_mid_task_leaves_it_running_and_the_next_worker_reruns_it() {
    let (_dir, home) = home();
    let queue = TaskQueue::open(&home.database_file()).expect("open");
    let first = queue.enqueue("test", "survive a crash").expect("enqueue");
    let second = queue.enqueue("test", "after the crash").expect("enqueue");

    let mut child = start_slow_worker(&home, 60_000);
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("read worker output");
    assert_eq!(line.trim(), format!("started {}", first.id));

    // SIGKILL by PID: no chance to clean up.
    let status = Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    child.wait().expect("reap");
    assert_eq!(
        queue.get(first.id).expect("get").status,
        TaskStatus::Running
    );
    assert_eq!(
        queue.get(second.id).expect("get").status,
        TaskStatus::Pending
    );

    let mut again = start_slow_worker(&home, 0);
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(exit) = again.try_wait().expect("poll worker") {
            break exit;
        }
        if Instant::now() > deadline {
            let _ = again.kill();
            panic!("the restarted worker did not finish the queue");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "restarted worker failed: {exit:?}");
    let first = queue.get(first.id).expect("get");
    assert_eq!(first.status, TaskStatus::Done);
    assert_eq!(first.reply.as_deref(), Some("reply to survive a crash"));
    assert_eq!(first.previous_context.as_deref(), Some(""));
    let second = queue.get(second.id).expect("get");
    assert_eq!(second.status, TaskStatus::Done);
    assert_eq!(
        second.previous_context, first.result,
        "context chained after recovery"
    );
}
