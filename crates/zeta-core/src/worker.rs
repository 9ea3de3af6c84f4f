//! The queue worker and its handle (`Core`). It is the only place that takes tasks from
//! the queue and runs them, one at a time.
//!
//! The worker runs as one tokio task. It takes the worker lock (or waits in standby while
//! another process holds it) and recovers rows a dead worker left `running`. Then it claims
//! tasks FIFO and runs each through the `Agent` in a task of its own, so that Ops such as
//! Cancel still arrive. It polls `PRAGMA data_version` to see rows other processes wrote.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, watch};
use tokio::task::JoinHandle;

use crate::agent::{
    Agent, AgentOutcome, ApprovalAnswer, ApprovalMessage, CancelToken, TaskContext,
};
use crate::error::CoreError;
use crate::lock::WorkerLock;
use crate::store::audit::AuditLog;
use crate::store::queue::{Task, TaskQueue};
use zeta_protocol::home::ZetaHome;
use zeta_protocol::{Event, Op, WorkerState};

#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// Stop once nothing is pending (the CLI's `worker` and `run`). With this set, a
    /// worker lock held elsewhere is an error rather than a reason to wait.
    pub exit_when_idle: bool,
    /// How often to look for rows other processes wrote and for a freed worker lock.
    pub poll_interval: Duration,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        Self {
            exit_when_idle: false,
            poll_interval: Duration::from_millis(250),
        }
    }
}

/// The handle to a running worker: send `Op`s, subscribe to `Event`s.
#[derive(Clone)]
pub struct Core {
    ops: mpsc::UnboundedSender<Op>,
    events: broadcast::Sender<Event>,
}

impl Core {
    pub fn submit(&self, op: Op) -> Result<(), CoreError> {
        self.ops.send(op).map_err(|_| CoreError::WorkerGone)
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// A sender of Ops only (no event sender), for listeners that answer events.
    pub fn ops(&self) -> mpsc::UnboundedSender<Op> {
        self.ops.clone()
    }
}

/// What `spawn_worker` returns: the handle to send Ops, the first event receiver, and
/// the worker's join handle.
pub type Spawned = (
    Core,
    broadcast::Receiver<Event>,
    JoinHandle<Result<(), CoreError>>,
);

/// Starts the worker on the current tokio runtime. The returned receiver sees every
/// event from the first one on.
pub fn spawn_worker<A: Agent>(
    home: ZetaHome,
    agent: A,
    options: WorkerOptions,
) -> Result<Spawned, CoreError> {
    let queue = TaskQueue::open(&home.database_file())?;
    let audit = AuditLog::open(&home.database_file())?;
    let scheduler = crate::store::scheduler::Scheduler::open(&home.database_file())?;
    let (ops_tx, ops_rx) = mpsc::unbounded_channel();
    let (events, first_rx) = broadcast::channel(4096);
    let worker = Worker {
        home,
        agent: Arc::new(agent),
        options,
        queue,
        audit,
        scheduler,
        events: events.clone(),
        lock: None,
        paused: false,
        stopping: None,
        state: None,
        running: None,
    };
    let last_words = events.clone();
    let handle = tokio::spawn(async move {
        let result = worker.run(ops_rx).await;
        // Another Zeta working the queue is a handover (`zeta run` beside the app waits
        // for it), not a worker that stopped.
        if let Some(e) = result
            .as_ref()
            .err()
            .filter(|e| !matches!(e, CoreError::WorkerBusy { .. }))
        {
            tracing::error!("the worker stopped: {e}");
            let _ = last_words.send(Event::Error {
                message: format!(
                    "The queue worker stopped: {e}. Restart Zeta to process tasks again."
                ),
            });
        }
        result
    });
    Ok((
        Core {
            ops: ops_tx,
            events,
        },
        first_rx,
        handle,
    ))
}

/// How the worker was asked to stop, which decides how a task cut short is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopping {
    /// The user quit: the running task is cancelled.
    Shutdown,
    /// Zeta is being stopped (a signal): the running task is interrupted, to resume.
    Interrupt,
}

struct RunningTask {
    id: i64,
    cancel: watch::Sender<bool>,
    inbox: crate::agent::Inbox,
    approvals: mpsc::UnboundedSender<ApprovalMessage>,
    handle: JoinHandle<AgentOutcome>,
}

struct Worker<A> {
    home: ZetaHome,
    agent: Arc<A>,
    options: WorkerOptions,
    queue: TaskQueue,
    audit: AuditLog,
    scheduler: crate::store::scheduler::Scheduler,
    events: broadcast::Sender<Event>,
    lock: Option<WorkerLock>,
    paused: bool,
    /// Set by `Shutdown` or `Interrupt`: no new task starts, and the worker ends once the
    /// running one has.
    stopping: Option<Stopping>,
    state: Option<WorkerState>,
    running: Option<RunningTask>,
}

impl<A: Agent> Worker<A> {
    async fn run(mut self, mut ops: mpsc::UnboundedReceiver<Op>) -> Result<(), CoreError> {
        let mut seen_version = self.queue.data_version()?;
        // Every `Core` handle dropped: no more Ops, but the queue is still worked.
        let mut ops_open = true;
        let mut tick = tokio::time::interval(self.options.poll_interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            if self.lock.is_none() {
                self.try_take_lock()?;
            }
            if self.running.is_none()
                && self.lock.is_some()
                && !self.paused
                && self.stopping.is_none()
            {
                let claimed = self.queue.claim_next();
                if let Some(task) = self.tolerate(claimed)?.flatten() {
                    self.start(task);
                }
            }
            if self.running.is_none() {
                let drained = self.options.exit_when_idle && {
                    let pending = self.queue.pending_count();
                    self.tolerate(pending)? == Some(0)
                };
                if self.stopping.is_some() || drained {
                    return Ok(());
                }
            }
            tokio::select! {
                op = ops.recv(), if ops_open => match op {
                    Some(op) => self.handle(op),
                    None => ops_open = false,
                },
                joined = join_running(&mut self.running) => self.finish(joined),
                _ = tick.tick() => {
                    if self.lock.is_some() && self.stopping.is_none() {
                        let fired = self.scheduler.fire_due(crate::store::queue::now_ms());
                        for task in self.tolerate(fired)?.unwrap_or_default() {
                            tracing::info!(task = task.id, "a scheduled job is due");
                            self.emit(Event::TaskQueued { task });
                        }
                    }
                    let version = self.queue.data_version();
                    if let Some(version) = self.tolerate(version)? {
                        if version != seen_version {
                            seen_version = version;
                            self.emit(Event::QueueChanged);
                        }
                    }
                }
            }
        }
    }

    /// A retryable database error (busy, locked) is reported and tried again on the next
    /// tick; any other error ends the worker.
    fn tolerate<T>(&self, result: Result<T, CoreError>) -> Result<Option<T>, CoreError> {
        match result {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_retryable() => {
                self.emit_error(format!("{e}; trying again"));
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    fn try_take_lock(&mut self) -> Result<(), CoreError> {
        match WorkerLock::try_acquire(&self.home) {
            Ok(lock) => {
                self.lock = Some(lock);
                let recovered = self.queue.recover_running()?;
                for r in &recovered {
                    tracing::warn!(
                        task = r.id,
                        failed = r.failed,
                        "Zeta stopped {}",
                        r.interrupted
                    );
                    match self.queue.get(r.id) {
                        Ok(task) if r.failed => self.emit(Event::TaskFinished { task }),
                        Ok(task) => self.emit(Event::TaskInterrupted { task }),
                        Err(e) => self.emit_error(format!("could not read task {}: {e}", r.id)),
                    }
                }
                if !recovered.is_empty() {
                    self.emit(Event::QueueChanged);
                }
                self.set_state(if self.paused {
                    WorkerState::Paused
                } else {
                    WorkerState::Active
                });
                Ok(())
            }
            Err(CoreError::WorkerBusy { pid, home }) => {
                if self.options.exit_when_idle {
                    return Err(CoreError::WorkerBusy { pid, home });
                }
                self.set_state(WorkerState::Standby { holder_pid: pid });
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    fn handle(&mut self, op: Op) {
        match op {
            Op::EnqueueTask { sender, message } => match self.queue.enqueue(&sender, &message) {
                Ok(task) => self.emit(Event::TaskQueued { task }),
                Err(e) => self.emit_error(format!("could not enqueue the task: {e}")),
            },
            Op::NewConversation => match self.queue.new_conversation() {
                Ok(id) => self.emit(Event::ConversationStarted { id }),
                Err(e) => self.emit_error(format!("could not start a new chat: {e}")),
            },
            Op::CancelTask { id } => match &self.running {
                Some(running) if running.id == id => {
                    let _ = running.cancel.send(true);
                }
                _ => match self.queue.cancel_pending(id) {
                    Ok(task) => self.emit(Event::TaskFinished { task }),
                    Err(e) => self.emit_error(format!("could not cancel task {id}: {e}")),
                },
            },
            Op::UserMessage { sender, text } => match &self.running {
                Some(running) => running.inbox.push(sender, text),
                None => self.handle(Op::EnqueueTask {
                    sender,
                    message: text,
                }),
            },
            Op::SendHeld { id } => match self.queue.send_held(id, "chat") {
                Ok(Some(task)) => self.emit(Event::TaskQueued { task }),
                Ok(None) => self
                    .emit_error("that message was sent already (or is no longer kept)".to_string()),
                Err(e) => self.emit_error(format!("could not send the kept message: {e}")),
            },
            Op::Approve {
                call_id,
                steps,
                scope,
            } => self.answer(call_id, true, None, steps, scope),
            Op::HoldApproval { call_id } => {
                let hold = ApprovalMessage::Hold {
                    call_id: call_id.clone(),
                };
                self.hand_to_waiting_task(&call_id, hold);
            }
            Op::Answer { call_id, text } => {
                let reply = ApprovalMessage::Reply {
                    call_id: call_id.clone(),
                    text,
                };
                self.hand_to_waiting_task(&call_id, reply);
            }
            Op::Deny { call_id, reason } => self.answer(
                call_id,
                false,
                reason,
                Vec::new(),
                zeta_protocol::ApprovalScope::Once,
            ),
            Op::PauseQueue => {
                self.paused = true;
                if self.lock.is_some() {
                    self.set_state(WorkerState::Paused);
                }
            }
            Op::ResumeQueue => {
                self.paused = false;
                if self.lock.is_some() {
                    self.set_state(WorkerState::Active);
                }
            }
            Op::Shutdown => self.stop(Stopping::Shutdown),
            Op::Interrupt => self.stop(Stopping::Interrupt),
        }
    }

    fn answer(
        &mut self,
        call_id: String,
        approved: bool,
        reason: Option<String>,
        steps: Vec<zeta_protocol::StepChoice>,
        scope: zeta_protocol::ApprovalScope,
    ) {
        let answer = ApprovalMessage::Answer(ApprovalAnswer {
            call_id: call_id.clone(),
            approved,
            reason,
            steps,
            scope,
        });
        self.hand_to_waiting_task(&call_id, answer);
    }

    /// Hands `message` about request `call_id` to the running task; says so when none runs.
    fn hand_to_waiting_task(&mut self, call_id: &str, message: ApprovalMessage) {
        let sent = self
            .running
            .as_ref()
            .is_some_and(|r| r.approvals.send(message).is_ok());
        if !sent {
            self.emit_error(format!(
                "no running task is waiting for approval of {call_id}"
            ));
        }
    }

    fn stop(&mut self, how: Stopping) {
        // An interrupt outranks a quit already under way: the task then resumes later.
        if self.stopping != Some(Stopping::Interrupt) {
            self.stopping = Some(how);
        }
        if let Some(running) = &self.running {
            let _ = running.cancel.send(true);
        }
    }

    /// Reads the settings fresh and hands the task to the agent.
    fn start(&mut self, task: Task) {
        let id = task.id;
        self.emit(Event::TaskStarted { task: task.clone() });
        let settings = match crate::settings::load_or_create(&self.home.settings_file()) {
            Ok(loaded) => {
                if !loaded.problems.is_empty() {
                    for p in &loaded.problems {
                        tracing::warn!("{p}");
                    }
                    self.emit(Event::SettingsProblems {
                        problems: loaded.problems,
                    });
                }
                loaded.settings
            }
            Err(e) => {
                self.record(
                    id,
                    AgentOutcome::Failed {
                        error: format!("Zeta could not read its settings.\n\n{e}"),
                        fix: Some(crate::model::Fix::OpenSettings),
                    },
                );
                return;
            }
        };
        let (cancel, token) = CancelToken::new();
        let inbox = crate::agent::Inbox::default();
        let (approvals, approvals_rx) = mpsc::unbounded_channel();
        let ctx = TaskContext {
            task,
            settings,
            cancel: token,
            events: self.events.clone(),
            inbox: inbox.clone(),
            approvals: approvals_rx,
            audit: Some(self.audit.clone()),
            settings_file: Some(self.home.settings_file()),
        };
        let agent = Arc::clone(&self.agent);
        let handle = tokio::spawn(async move { agent.run(ctx).await });
        self.running = Some(RunningTask {
            id,
            cancel,
            inbox,
            approvals,
            handle,
        });
    }

    fn finish(&mut self, joined: Result<AgentOutcome, tokio::task::JoinError>) {
        let Some(running) = self.running.take() else {
            return;
        };
        self.end_task(running, joined);
    }

    /// Records how a task ended, with the messages the user added that it never read:
    /// after the person's Stop they are held on the task's record until the person sends
    /// them (a Stop means "not now"); otherwise each runs as a task of its own, saying so.
    /// They are on the record before the task's end is announced, so whatever shows the
    /// ended task shows them.
    fn end_task(
        &mut self,
        running: RunningTask,
        joined: Result<AgentOutcome, tokio::task::JoinError>,
    ) {
        use crate::store::record::AddedFate;
        let (id, inbox) = (running.id, running.inbox.clone());
        let stopped_by_person = matches!(joined, Ok(AgentOutcome::Cancelled { .. }))
            && self.stopping != Some(Stopping::Interrupt);
        let mut announce = Vec::new();
        for (sender, text) in inbox.take() {
            if stopped_by_person {
                if let Err(e) = self.queue.note_added(id, &text, AddedFate::Held, None) {
                    self.emit_error(format!(
                        "a message added to task {id} could not be kept ({e}): \"{text}\""
                    ));
                }
                continue;
            }
            match self.queue.enqueue(&sender, &text) {
                Ok(task) => {
                    if let Err(e) =
                        self.queue
                            .note_added(id, &text, AddedFate::Requeued, Some(task.id))
                    {
                        tracing::warn!("could not note the requeued message on task {id}: {e}");
                    }
                    announce.push((task, text));
                }
                Err(e) => self.emit_error(format!(
                    "a message added to task {id} could not be queued ({e}): \"{text}\""
                )),
            }
        }
        self.settle(running, joined);
        for (task, text) in announce {
            self.emit(Event::UserMessageRequeued {
                task_id: id,
                new_task_id: task.id,
                text,
            });
            self.emit(Event::TaskQueued { task });
        }
    }

    fn settle(
        &mut self,
        running: RunningTask,
        joined: Result<AgentOutcome, tokio::task::JoinError>,
    ) {
        let outcome = joined.unwrap_or_else(|e| AgentOutcome::Failed {
            error: format!("The task stopped unexpectedly.\n\n{e}"),
            fix: Some(crate::model::Fix::Retry),
        });
        if self.stopping == Some(Stopping::Interrupt)
            && matches!(outcome, AgentOutcome::Cancelled { .. })
        {
            match self.queue.interrupt(running.id) {
                Ok(task) if task.status.is_final() => self.emit(Event::TaskFinished { task }),
                Ok(task) => {
                    tracing::warn!(task = task.id, "interrupted; it resumes on the next start");
                    self.emit(Event::TaskInterrupted { task });
                }
                Err(e) => self.emit_error(format!(
                    "could not record that task {} was interrupted: {e}",
                    running.id
                )),
            }
            return;
        }
        self.record(running.id, outcome);
    }

    fn record(&mut self, id: i64, outcome: AgentOutcome) {
        let written = match &outcome {
            AgentOutcome::Done { reply } => self.queue.finish_done(id, reply),
            AgentOutcome::Failed { error, fix } => self.queue.finish_failed(id, error, *fix),
            AgentOutcome::Cancelled { progress } => self.queue.finish_cancelled(id, progress),
        };
        match written {
            Ok(task) => {
                if let Some(error) = &task.error {
                    tracing::info!(task = id, status = %task.status, "{error}");
                }
                self.emit(Event::TaskFinished { task });
            }
            Err(e) => self.emit_error(format!("could not record the end of task {id}: {e}")),
        }
    }

    fn set_state(&mut self, state: WorkerState) {
        if self.state.as_ref() != Some(&state) {
            self.state = Some(state.clone());
            self.emit(Event::WorkerStateChanged { state });
        }
    }

    fn emit_error(&self, message: String) {
        tracing::error!("{message}");
        self.emit(Event::Error { message });
    }

    fn emit(&self, event: Event) {
        // No listener is not an error: the event log is also in the database.
        let _ = self.events.send(event);
    }
}

async fn join_running(
    running: &mut Option<RunningTask>,
) -> Result<AgentOutcome, tokio::task::JoinError> {
    match running {
        Some(r) => (&mut r.handle).await,
        None => std::future::pending().await,
    }
}
