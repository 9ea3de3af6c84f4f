//! The command line: `zeta` with no command opens the app; the commands below work
//! without a display and never open a window.

mod approval;
mod doctor;
mod local_server;
mod mcp;
mod memory;
mod models;
mod secret;
mod skills;
mod undo;
mod voice;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use zeta_core::{
    spawn_worker, CoreError, Event, Op, Task, TaskQueue, TaskStatus, WorkerOptions, ZetaHome,
};

use crate::cli::approval::{answer_call, answer_plan, answer_question, Approve, CallAsked};
use crate::signals::{self, Stop};
use zeta_app::agent::{configured_agent, mcp_manager, user_workdir};

#[derive(Debug, Parser)]
#[command(name = "zeta", version, about = "Zeta, a desktop computer-use agent")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Add a task to the queue (a running app picks it up).
    Enqueue {
        /// The request, as you would type it in the chat.
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// List the newest tasks, oldest first.
    Queue {
        /// One JSON array of tasks instead of a table.
        #[arg(long)]
        json: bool,
        /// How many of the newest tasks to show.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Process the queue headless until nothing is pending.
    Worker {
        /// Print every event as a JSON line.
        #[arg(long)]
        json: bool,
        /// Answer approval requests: ask on the terminal, or all / none for scripts.
        #[arg(long, value_enum)]
        approve: Option<Approve>,
    },
    /// Enqueue one task, process the queue, and print the task's reply.
    Run {
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
        /// Print every event as a JSON line (the reply is in the last one).
        #[arg(long)]
        json: bool,
        /// Answer approval requests: ask on the terminal, or all / none for scripts.
        /// Default: ask when a terminal is attached, none otherwise.
        #[arg(long, value_enum)]
        approve: Option<Approve>,
    },
    /// Show the audit log: every tool call, its decision, who decided, and its result.
    Audit {
        #[arg(long)]
        json: bool,
        #[arg(long, default_value_t = 100)]
        limit: u32,
    },
    /// Take back every file change a task made (its files as they were before it).
    Undo {
        task: i64,
        /// Say what would be put back, changing nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Take back the last undo of a task (its changes come back).
    Redo {
        task: i64,
        #[arg(long)]
        dry_run: bool,
    },
    /// One task: its request and answer; with --changes, the files it changed (with
    /// diffs) and what no undo takes back.
    Show {
        task: i64,
        #[arg(long)]
        changes: bool,
        #[arg(long)]
        json: bool,
    },
    /// What the agent remembers: list, search or forget saved facts.
    #[command(subcommand)]
    Memory(crate::cli::memory::MemoryCommand),
    /// Scheduled jobs: list, add or remove.
    #[command(subcommand)]
    Schedule(crate::cli::memory::ScheduleCommand),
    /// Print what Whisper hears in a WAV file (the configured model unless --model).
    Transcribe {
        file: std::path::PathBuf,
        #[arg(long)]
        model: Option<std::path::PathBuf>,
        /// One JSON object: text, seconds of speech, time in Whisper.
        #[arg(long)]
        json: bool,
    },
    /// Start or stop a voice recording in the running app (when the hotkey is unavailable).
    Listen {
        #[arg(value_enum, default_value = "toggle")]
        action: crate::cli::voice::ListenAction,
    },
    /// Model files: list, download (resumable, sha256-checked), import, use.
    #[command(subcommand)]
    Models(crate::cli::models::ModelsCommand),
    /// Store or remove API keys (in the OS keyring, or an owner-only file without one).
    #[command(subcommand)]
    Secret(crate::cli::secret::SecretCommand),
    /// MCP servers: list them with their tools, add, remove, test one.
    #[command(subcommand)]
    Mcp(crate::cli::mcp::McpCommand),
    /// Skills: list, show, add a folder, remove, new, on/off, trust, learn from a task.
    #[command(subcommand)]
    Skills(crate::cli::skills::SkillsCommand),
    /// Zeta's own model server, kept warm between commands: `stop` ends it now.
    #[command(subcommand)]
    LocalServer(crate::cli::local_server::LocalServerCommand),
    /// Check the display, tray, DBus, audio, settings, database, models and LLM endpoint.
    Doctor {
        #[arg(long)]
        json: bool,
    },
}

/// Runs a CLI command to completion.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    let home = ZetaHome::from_env()?;
    if let Some(notice) = home.notice() {
        err!("zeta: {notice}");
    }
    match command {
        Command::Enqueue { text } => {
            let queue = TaskQueue::open(&home.database_file())?;
            let task = queue.enqueue("cli", &join(&text)?)?;
            out!("{}", task.id);
            Ok(ExitCode::SUCCESS)
        }
        Command::Queue { json, limit } => {
            let tasks = TaskQueue::open(&home.database_file())?.recent(limit)?;
            if json {
                out!("{}", serde_json::to_string_pretty(&tasks)?);
            } else {
                print_table(&tasks);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Worker { json, approve } => runtime()?.block_on(async move {
            // Ctrl+C stops the worker like SIGTERM: the running task resumes next time.
            let stopped =
                process_queue(&home, json, Approve::or_default(approve), Op::Interrupt).await?;
            Ok(stopped.map_or(ExitCode::SUCCESS, |s| ExitCode::from(s.exit_code())))
        }),
        Command::Run {
            text,
            json,
            approve,
        } => {
            let message = join(&text)?;
            runtime()?.block_on(run_one(home, message, json, Approve::or_default(approve)))
        }
        Command::Audit { json, limit } => {
            let log = zeta_core::store::audit::AuditLog::open(&home.database_file())?;
            let entries = log.recent(limit)?;
            if json {
                out!("{}", serde_json::to_string_pretty(&entries)?);
            } else if entries.is_empty() {
                out!("no tool calls recorded yet");
            } else {
                for e in &entries {
                    let mark = match (e.state.as_str(), e.ok) {
                        ("running", _) => "..",
                        ("interrupted", _) => "!!",
                        (_, true) => "ok",
                        (_, false) => "--",
                    };
                    out!(
                        "{:>5}  task {:<4} {:<14} {:<15} by {:<9} {mark} {}  {}",
                        e.id,
                        e.task_id,
                        e.tool,
                        e.decision,
                        e.decided_by,
                        zeta_core::text::one_line(&e.summary, 40),
                        zeta_core::text::one_line(&e.arguments, 60)
                    );
                }
            }
            // How the finishing checks judged the answers (text only: the JSON stays the
            // list of calls).
            let checks = log.recent_checks(limit)?;
            if !json && !checks.is_empty() {
                out!("answer checks:");
                for c in &checks {
                    out!(
                        "{:>5}  task {:<4} {:<16} {:<9} {}",
                        c.id,
                        c.task_id,
                        c.check,
                        c.result,
                        zeta_core::text::one_line(&c.detail, 80)
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Undo { task, dry_run } => crate::cli::undo::undo(&home, task, dry_run, false),
        Command::Redo { task, dry_run } => crate::cli::undo::undo(&home, task, dry_run, true),
        Command::Show {
            task,
            changes,
            json,
        } => crate::cli::undo::show(&home, task, changes, json),
        Command::Doctor { json } => Ok(crate::cli::doctor::run(&home, json)),
        Command::LocalServer(command) => crate::cli::local_server::run(&home, command),
        Command::Secret(command) => crate::cli::secret::run(&home, command),
        Command::Mcp(command) => crate::cli::mcp::run(&home, command),
        Command::Skills(command) => crate::cli::skills::run(&home, command),
        Command::Models(command) => crate::cli::models::run(&home, command),
        Command::Transcribe { file, model, json } => {
            crate::cli::voice::transcribe(&home, &file, model, json)
        }
        Command::Listen { action } => crate::cli::voice::listen(&home, action),
        Command::Memory(command) => crate::cli::memory::memory(&home, command),
        Command::Schedule(command) => crate::cli::memory::schedule(&home, command),
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")
}

fn join(words: &[String]) -> anyhow::Result<String> {
    let text = words.join(" ");
    if text.trim().is_empty() {
        bail!("the task text is empty");
    }
    Ok(text)
}

/// Runs the worker until nothing is pending, printing events as they come. A first
/// SIGTERM interrupts the running task (it resumes on the next start), a first SIGINT
/// sends `on_ctrl_c`; either way the worker stops, and the signal is returned.
/// `WorkerBusy` when another process holds the queue.
async fn process_queue(
    home: &ZetaHome,
    json: bool,
    approve: Approve,
    on_ctrl_c: Op,
) -> Result<Option<Stop>, CoreError> {
    let options = WorkerOptions {
        exit_when_idle: true,
        ..WorkerOptions::default()
    };
    // Without the app, the server stays loaded for the next command (a keeper ends it
    // once unused for `provider.keepWarmSecs`); with the app running, its server is used.
    let launch = match std::env::current_exe() {
        Ok(exe) => zeta_llm::local::Launch::Keeper(exe),
        Err(e) => {
            tracing::warn!("cannot name this program to keep the model warm: {e}");
            zeta_llm::local::Launch::Child
        }
    };
    let local = zeta_llm::LocalServer::new(home.root(), launch);
    let watcher = tokio::spawn(report_local_server(local.subscribe()));
    let mcp = mcp_manager(home);
    let agent = configured_agent(
        home,
        std::sync::Arc::clone(&local),
        std::sync::Arc::clone(&mcp),
        user_workdir(home),
    )?;
    let (core, mut events, handle) = spawn_worker(home.clone(), agent, options)?;
    // The printer answers approvals through `ops`. The event stream ends when the worker
    // does, because the worker's is then the last event sender left.
    let ops = core.ops();
    drop(core);
    let stop_ops = ops.clone();
    let signal = signals::watch(move |stop| {
        let op = match stop {
            Stop::Terminate => Op::Interrupt,
            Stop::Interrupt => on_ctrl_c,
        };
        let _ = stop_ops.send(op);
    });
    let printer = tokio::spawn(async move {
        while let Ok(event) = events.recv().await {
            print_event(&event, json);
            let op = match &event {
                Event::ApprovalRequested {
                    call_id,
                    tool,
                    target,
                    reason,
                    requires_person,
                    allowance,
                    files,
                    arguments,
                    ..
                } => Some(
                    answer_call(
                        approve,
                        CallAsked {
                            call_id,
                            target,
                            tool,
                            reason: reason.as_deref(),
                            requires_person: *requires_person,
                            allowance: allowance.as_ref(),
                            files,
                            arguments,
                        },
                    )
                    .await,
                ),
                Event::PlanProposed {
                    call_id,
                    goal,
                    risks,
                    steps,
                    needs_approval: true,
                    ..
                } => Some(answer_plan(approve, call_id, goal, risks, steps).await),
                Event::QuestionAsked {
                    call_id, question, ..
                } => Some(answer_question(approve, call_id, question).await),
                _ => None,
            };
            if let Some(op) = op {
                let _ = ops.send(op);
            }
        }
    });
    let result = handle.await.unwrap_or_else(|e| {
        Err(CoreError::Home(format!(
            "the worker stopped unexpectedly: {e}"
        )))
    });
    // The worker's sender is gone once it returns; the printer drains what is left.
    let _ = printer.await;
    // No orphans: a server this command started as its child ends with it; one a keeper
    // serves stays for the keep-warm time.
    tokio::task::block_in_place(|| local.stop());
    mcp.shutdown().await;
    watcher.abort();
    result.map(|()| signal.get())
}

/// Says on stderr what Zeta's own model server is doing (it takes seconds to start).
async fn report_local_server(mut state: tokio::sync::watch::Receiver<zeta_llm::LocalServerState>) {
    use zeta_llm::LocalServerState as S;
    while state.changed().await.is_ok() {
        let line = match &*state.borrow_and_update() {
            S::Stopped => continue,
            S::Starting { model, program } => {
                format!("starting the local model server ({program}) with {model}")
            }
            S::Ready {
                port,
                pid,
                startup_ms,
                ..
            } => format!(
                "the local model server is ready on 127.0.0.1:{port} (pid {pid}, {:.1} s)",
                *startup_ms as f64 / 1000.0
            ),
            S::Restarting { reason, attempt } => {
                format!("restarting the local model server (attempt {attempt}): {reason}")
            }
            S::Failed { error } => format!("the local model server failed: {error}"),
        };
        err!("zeta: {line}");
    }
}

async fn run_one(
    home: ZetaHome,
    message: String,
    json: bool,
    approve: Approve,
) -> anyhow::Result<ExitCode> {
    let queue = TaskQueue::open(&home.database_file())?;
    let task = queue.enqueue("cli", &message)?;
    if json {
        print_event(&Event::TaskQueued { task: task.clone() }, true);
    }
    // Ctrl+C on `zeta run` cancels the task it was asked to run.
    let mut stopped = None;
    let mut ran_here = true;
    match process_queue(&home, json, approve, Op::Shutdown).await {
        Ok(signal) => stopped = signal,
        Err(CoreError::WorkerBusy { pid, .. }) => {
            err!(
                "zeta: another Zeta (pid {pid}) is working the queue; waiting for task {}",
                task.id
            );
            ran_here = false;
            wait_until_final(&queue, task.id).await?;
        }
        Err(e) => return Err(e.into()),
    }
    let task = queue.get(task.id)?;
    // The worker's events already said how it ended, unless another process ran it.
    let told = !json && ran_here;
    let refused = refused_calls(&home, &task);
    let code = report(&task, json, told, &refused);
    Ok(stopped.map_or(code, |s| ExitCode::from(s.exit_code())))
}

/// The exit code of a task that finished while some of its calls were refused (denied,
/// blocked, or asked with nobody to say yes): its answer may claim what did not happen.
const DONE_WITH_REFUSALS: u8 = 3;

/// A call of the task that did not run because it was refused, from the audit.
struct Refused {
    tool: String,
    target: String,
    decision: String,
    why: String,
}

/// The task's refused calls, in order (none when the audit cannot be read: the task's
/// count of denied calls still says so).
fn refused_calls(home: &ZetaHome, task: &Task) -> Vec<Refused> {
    let Ok(log) = zeta_core::store::audit::AuditLog::open(&home.database_file()) else {
        return Vec::new();
    };
    let rows = log.for_task(task.id).unwrap_or_default();
    rows.into_iter()
        .filter(|r| matches!(r.decision.as_str(), "asked-denied" | "denied" | "blocked"))
        .map(|r| {
            let arguments: serde_json::Value =
                serde_json::from_str(&r.arguments).unwrap_or_default();
            let target = ["command", "path", "name", "url", "code"]
                .iter()
                .find_map(|k| arguments.get(*k).and_then(|v| v.as_str()))
                .map(zeta_core::policy::shown::visible)
                .unwrap_or_default();
            Refused {
                tool: r.tool,
                target,
                decision: r.decision,
                why: r.summary,
            }
        })
        .collect()
}

async fn wait_until_final(queue: &TaskQueue, id: i64) -> anyhow::Result<()> {
    loop {
        if queue.get(id)?.status.is_final() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Prints the task's outcome (reply on stdout, error on stderr, unless `told` already)
/// and picks the exit code.
fn report(task: &Task, json: bool, told: bool, refused: &[Refused]) -> ExitCode {
    match task.status {
        TaskStatus::Done => {
            let code = if refused.is_empty() && task.denied_calls == 0 {
                0
            } else {
                DONE_WITH_REFUSALS
            };
            if json {
                let calls: Vec<serde_json::Value> = refused
                    .iter()
                    .map(|r| {
                        serde_json::json!({"tool": r.tool, "target": r.target,
                                           "decision": r.decision, "why": r.why})
                    })
                    .collect();
                let outcome = serde_json::json!({"type": "runOutcome", "taskId": task.id,
                    "status": "done", "refused": calls, "failedCalls": task.failed_calls,
                    "skippedSteps": task.skipped_steps, "exitCode": code});
                out!("{outcome}");
            } else {
                out!("{}", task.reply.as_deref().unwrap_or_default());
                if let (Some(note), false) = (calls_note(task), told) {
                    err!("zeta: task {} done, but {note}", task.id);
                }
                for r in refused {
                    err!(
                        "zeta: not done: {} `{}` was {} ({})",
                        r.tool,
                        zeta_core::text::clip(&r.target, 200),
                        match r.decision.as_str() {
                            "blocked" => "blocked",
                            _ => "refused",
                        },
                        zeta_core::text::one_line(&r.why, 200)
                    );
                }
            }
            ExitCode::from(code)
        }
        TaskStatus::Pending | TaskStatus::Running => {
            let why = task.interrupted.as_deref().unwrap_or("it has not run yet");
            err!(
                "zeta: task {} was interrupted ({why}); it resumes the next time Zeta works the queue",
                task.id
            );
            ExitCode::FAILURE
        }
        status => {
            let why = task.error.as_deref().unwrap_or("no error recorded");
            if !told {
                err!("zeta: task {} {status}: {why}", task.id);
            }
            if let Some(progress) = task.reply.as_deref().filter(|p| !p.is_empty()) {
                err!("progress so far: {progress}");
            }
            ExitCode::FAILURE
        }
    }
}

fn print_event(event: &Event, json: bool) {
    if json {
        match serde_json::to_string(event) {
            Ok(line) => out!("{line}"),
            Err(e) => err!("zeta: could not encode an event: {e}"),
        }
        return;
    }
    match event {
        Event::TaskStarted { task } => {
            err!("zeta: task {} started: {}", task.id, task.message)
        }
        Event::TaskFinished { task } => match task.status {
            TaskStatus::Done => match calls_note(task) {
                Some(note) => err!("zeta: task {} done, but {note}", task.id),
                None => err!("zeta: task {} done", task.id),
            },
            status => err!(
                "zeta: task {} {status}: {}",
                task.id,
                task.error.as_deref().unwrap_or("no error recorded")
            ),
        },
        Event::SettingsProblems { problems } => {
            for p in problems {
                err!("zeta: {p}");
            }
        }
        Event::Error { message } => err!("zeta: error: {message}"),
        Event::Progress { text, .. } => err!("zeta: … {text}"),
        Event::ModelRetrying {
            task_id,
            attempt,
            wait_ms,
            said,
        } => err!(
            "zeta: task {task_id}: {said} Trying again in {:.0} s (attempt {} failed).",
            (*wait_ms as f64 / 1000.0).ceil(),
            attempt
        ),
        Event::TaskInterrupted { task } => err!(
            "zeta: task {} was interrupted: Zeta stopped {}",
            task.id,
            task.interrupted.as_deref().unwrap_or("while it ran")
        ),
        Event::ApprovalResolved {
            task_id,
            approved,
            by,
            ..
        } => {
            // What the CLI answered itself was said when it answered.
            let why = match by.as_str() {
                "timeout" => " (nobody answered in time)",
                "cancel" => " (the task was stopped)",
                "nobody" => " (there was nobody to ask)",
                _ => "",
            };
            let verdict = if *approved {
                "approved"
            } else {
                "not approved"
            };
            err!("zeta: task {task_id}: the call was {verdict}{why}");
        }
        Event::PlanStepUpdated {
            index,
            status,
            summary,
            ..
        } => err!("zeta: plan step {} {status:?} {summary}", index + 1),
        // What a finishing check found, as the chat shows it under the answer.
        Event::AnswerChecked {
            check,
            result,
            detail,
            ..
        } => match result {
            zeta_protocol::CheckResult::Told => err!("zeta: note ({check}): {detail}"),
            zeta_protocol::CheckResult::SentBack => {
                err!("zeta: the answer was sent back to the model ({check})")
            }
        },
        _ => {}
    }
}

fn print_table(tasks: &[Task]) {
    if tasks.is_empty() {
        out!("the queue is empty");
        return;
    }
    out!(
        "{:>5}  {:<9}  {:<9}  message / outcome",
        "id",
        "status",
        "sender"
    );
    for t in tasks {
        let outcome = match t.status {
            TaskStatus::Done => t.reply.clone(),
            TaskStatus::Failed | TaskStatus::Cancelled => t.error.clone(),
            _ => None,
        };
        out!(
            "{:>5}  {:<9}  {:<9}  {}",
            t.id,
            t.status,
            t.sender,
            zeta_core::text::one_line(&t.message, 60)
        );
        if let Some(outcome) = outcome {
            out!(
                "{:>5}  {:<9}  {:<9}  -> {}",
                "",
                "",
                "",
                zeta_core::text::one_line(&outcome, 60)
            );
        }
        if let Some(note) = calls_note(t) {
            out!("{:>5}  {:<9}  {:<9}  !! {note}", "", "", "");
        }
    }
}

/// What did not happen in a task, from its audit, whatever its reply says: "1 call was
/// not allowed to run, 2 failed, 1 plan step was skipped and did not run".
fn calls_note(task: &Task) -> Option<String> {
    let plural = |n: u32| if n == 1 { "call was" } else { "calls were" };
    let mut parts = Vec::new();
    if task.denied_calls > 0 {
        parts.push(format!(
            "{} {} not allowed to run",
            task.denied_calls,
            plural(task.denied_calls)
        ));
    }
    if task.failed_calls > 0 {
        parts.push(format!("{} failed", task.failed_calls));
    }
    match task.skipped_steps {
        0 => {}
        1 => parts.push("1 plan step was skipped and did not run".into()),
        n => parts.push(format!("{n} plan steps were skipped and did not run")),
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
