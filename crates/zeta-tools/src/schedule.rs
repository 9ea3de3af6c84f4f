//! The scheduling tools: `schedule_task` runs a request later (cron or once),
//! `list_scheduled` lists the jobs (the store is zeta-core's `store::scheduler`).

use chrono::{Local, TimeZone};
use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::store::scheduler::{describe, Scheduler, When};
use zeta_core::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

use crate::args::parse;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScheduleArgs {
    message: String,
    cron: Option<String>,
    at: Option<String>,
}

/// `schedule_task`: run a request later, once or repeatedly.
pub struct ScheduleTask(pub Scheduler);
/// `list_scheduled`: the jobs and their next runs.
pub struct ListScheduled(pub Scheduler);

impl Tool for ScheduleTask {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "schedule_task".into(),
            description: "Schedule a request to run later as a new task: `cron` (five fields, local \
time, e.g. \"0 9 * * 1-5\") for a repeating job, or `at` (\"YYYY-MM-DD HH:MM\" local time) for once."
                .into(),
            parameters: json!({"type": "object", "properties": {
                "message": {"type": "string", "minLength": 1},
                "cron": {"type": "string"},
                "at": {"type": "string"}
            }, "required": ["message"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        // A scheduled task will act later without the user in the loop.
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        // It reports only the job it added.
        false
    }
    fn target(&self, arguments: &Value) -> String {
        let text = |k: &str| {
            arguments
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        match (text("cron"), text("at")) {
            (c, _) if !c.is_empty() => format!("\"{}\" on cron {c}", text("message")),
            (_, a) => format!("\"{}\" at {a}", text("message")),
        }
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: ScheduleArgs = match parse("schedule_task", arguments) {
                Ok(args) => args,
                Err(e) => return e,
            };
            let when = match When::parse(args.cron.as_deref(), args.at.as_deref()) {
                Ok(when) => when,
                Err(e) => return ToolOutput::error(format!("schedule_task: {e}")),
            };
            match self.0.add(&when, &args.message) {
                Ok(job) => match job
                    .next_run_at
                    .and_then(|ms| Local.timestamp_millis_opt(ms).single())
                {
                    Some(next) => ToolOutput::ok(
                        format!(
                            "Scheduled as job {}; next run {}.",
                            job.id,
                            next.format("%Y-%m-%d %H:%M")
                        ),
                        format!("job {} scheduled", job.id),
                    ),
                    None => ToolOutput::error(format!(
                        "schedule_task: job {} would never run (the time has passed)",
                        job.id
                    )),
                },
                Err(e) => ToolOutput::error(format!("schedule_task: {e}")),
            }
        })
    }
}

impl Tool for ListScheduled {
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "list_scheduled".into(),
            description: "List the scheduled jobs with their next run.".into(),
            parameters: json!({"type": "object", "properties": {}, "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn run<'a>(&'a self, _arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            match self.0.list() {
                Ok(jobs) if jobs.is_empty() => ToolOutput::ok("No scheduled jobs.", "no jobs"),
                Ok(jobs) => {
                    let lines: Vec<String> = jobs.iter().map(describe).collect();
                    ToolOutput::ok(lines.join("\n"), format!("{} jobs", jobs.len()))
                }
                Err(e) => ToolOutput::error(format!("list_scheduled: {e}")),
            }
        })
    }
}
