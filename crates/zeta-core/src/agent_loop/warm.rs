//! Warming: the opening every task's first request starts with (the rules, the tools,
//! the examples, this computer's description) sent once to the configured model ahead of
//! need, its answer discarded. A local server keeps what it evaluated in its slot, and
//! saves it when it stops (`zeta_llm::local::kept_prompt`), so the first real task
//! evaluates only what is new. `zeta local-server warm` runs it at setup; nothing runs,
//! nothing is recorded.

use tokio::sync::{broadcast, mpsc};

use super::{AgentLoop, ModelSource, Run};
use crate::agent::{CancelToken, Inbox, TaskContext};
use crate::settings::Settings;
use zeta_protocol::{Task, TaskStatus};

/// The request the warm-up stands in for: a short everyday question, so that the
/// opening is the one most tasks send.
const QUESTION: &str = "What is my user name?";

impl<S: ModelSource> AgentLoop<S> {
    /// Sends the first request of a task asking [`QUESTION`] with `settings`, and
    /// discards the answer: no tool runs, no task, audit or undo record is made.
    ///
    /// The request opens with the computer as it is now (its memory, the programs using
    /// most of it), and a server started for the first request changes that: the app's
    /// first task after its warm-up saw the model server among the programs and evaluated
    /// ~60 tokens again (~1.4 s). So where the server `stays` (the app's, serving the
    /// tasks to come) and the opening a task would send now differs from the one sent,
    /// it is sent once more, which evaluates only what changed. Setup's warm-up stops
    /// the server, and the first `zeta run` after it builds its opening before it starts
    /// one: there the first opening is the one to keep.
    pub async fn warm(&self, mut settings: Settings, stays: bool) -> Result<(), String> {
        settings.undo.enabled = false;
        let mut sent = None;
        for _ in 0..if stays { 2 } else { 1 } {
            let model = self.models.model_for(&settings).map_err(|e| e.full())?;
            let (events, _) = broadcast::channel(16);
            let (_answers, approvals) = mpsc::unbounded_channel();
            let (_cancel, cancel) = CancelToken::new();
            let ctx = TaskContext {
                task: warm_task(),
                settings: settings.clone(),
                cancel,
                events,
                inbox: Inbox::default(),
                approvals,
                audit: None,
                settings_file: None,
            };
            let mut run = Run::new(self, model, ctx, Default::default());
            if sent.as_ref() == Some(&run.messages) {
                break;
            }
            let format = run.protocol.format(false);
            match run.request_once(&format).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(e.full()),
                Err(_) => return Err("the warm-up was cancelled".into()),
            }
            sent = Some(std::mem::take(&mut run.messages));
        }
        Ok(())
    }
}

fn warm_task() -> Task {
    Task {
        id: 0,
        sender: "warm-up".into(),
        message: QUESTION.into(),
        status: TaskStatus::Running,
        previous_context: None,
        result: None,
        reply: None,
        error: None,
        created_at: 0,
        started_at: None,
        finished_at: None,
        attempts: 0,
        interrupted: None,
        untrusted: false,
        previous_untrusted: false,
        denied_calls: 0,
        failed_calls: 0,
        skipped_steps: 0,
        conversation: 0,
        fix: None,
    }
}
