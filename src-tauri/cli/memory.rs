//! `zeta memory` and `zeta schedule`: see and delete what the agent remembers, and the
//! jobs it scheduled.

use std::process::ExitCode;

use zeta_core::store::memory::MemoryStore;
use zeta_core::store::scheduler::{describe, Scheduler, When};
use zeta_core::ZetaHome;

#[derive(Debug, clap::Subcommand)]
pub enum MemoryCommand {
    /// The saved facts, newest first, and the long-term summary.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Facts matching the words.
    Search {
        #[arg(required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// Delete a fact by its id, or everything (facts and summary) with `all`.
    Forget { id: String },
}

#[derive(Debug, clap::Subcommand)]
pub enum ScheduleCommand {
    /// The scheduled jobs with their next run.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Schedule a request: `--cron "0 9 * * 1-5"` or `--at "2026-11-23 09:00"`.
    Add {
        #[arg(long)]
        cron: Option<String>,
        #[arg(long)]
        at: Option<String>,
        #[arg(required = true, num_args = 1..)]
        message: Vec<String>,
    },
    /// Remove a job.
    Remove { id: i64 },
}

pub fn memory(home: &ZetaHome, command: MemoryCommand) -> anyhow::Result<ExitCode> {
    let store = MemoryStore::open(&home.database_file())?;
    match command {
        MemoryCommand::List { json } => {
            let facts = store.list(1000)?;
            if json {
                out!("{}", serde_json::to_string_pretty(&facts)?);
            } else {
                for f in &facts {
                    out!("[{}] {}{}", f.id, f.text, tags(&f.tags));
                }
                if facts.is_empty() {
                    out!("no saved facts");
                }
                let summary = store.summary()?;
                if !summary.is_empty() {
                    out!("\nlong-term summary:\n{summary}");
                }
            }
        }
        MemoryCommand::Search { words } => {
            for f in store.search(&words.join(" "), 20)? {
                out!("[{}] {}{}", f.id, f.text, tags(&f.tags));
            }
        }
        MemoryCommand::Forget { id } if id == "all" => {
            let facts = store.list(u32::MAX)?;
            for f in &facts {
                store.forget(f.id)?;
            }
            store.clear_summary()?;
            err!(
                "zeta: forgot {} facts and the long-term summary",
                facts.len()
            );
        }
        MemoryCommand::Forget { id } => {
            let id: i64 = id
                .parse()
                .map_err(|_| anyhow::anyhow!("{id:?} is not a fact id (or `all`)"))?;
            if store.forget(id)? {
                err!("zeta: forgot fact {id}");
            } else {
                anyhow::bail!("there is no fact {id}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn tags(tags: &str) -> String {
    if tags.is_empty() {
        String::new()
    } else {
        format!("  ({tags})")
    }
}

pub fn schedule(home: &ZetaHome, command: ScheduleCommand) -> anyhow::Result<ExitCode> {
    let scheduler = Scheduler::open(&home.database_file())?;
    match command {
        ScheduleCommand::List { json } => {
            let jobs = scheduler.list()?;
            if json {
                out!("{}", serde_json::to_string_pretty(&jobs)?);
            } else if jobs.is_empty() {
                out!("no scheduled jobs");
            } else {
                for job in &jobs {
                    out!("{}", describe(job));
                }
            }
        }
        ScheduleCommand::Add { cron, at, message } => {
            let when = When::parse(cron.as_deref(), at.as_deref()).map_err(anyhow::Error::msg)?;
            let job = scheduler.add(&when, &message.join(" "))?;
            out!("{}", describe(&job));
        }
        ScheduleCommand::Remove { id } => {
            if !scheduler.remove(id)? {
                anyhow::bail!("there is no job {id}");
            }
            err!("zeta: removed job {id}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
