//! `zeta skills`: the skills Zeta knows — its own and the person's in `$ZETA_HOME/skills`
//! — with each one's record. `list`, `show NAME`, `add DIR` (a skill folder from
//! elsewhere, copied as it is; untrusted unless `--trust`), `remove NAME`, `new NAME`
//! (a skeleton to edit), `on`/`off NAME`, `trust NAME`, `match REQUEST` (what a small
//! model would be shown for it, and why), and `learn TASK`: a skill drafted from a task
//! that worked, saved only when the person says yes.

use std::process::ExitCode;

use anyhow::{bail, Context};
use zeta_core::store::audit::AuditLog;
use zeta_core::ZetaHome;
use zeta_skills::{Entry, Skills};

#[derive(Debug, clap::Subcommand)]
pub enum SkillsCommand {
    /// Every skill: built in or yours, on or off, trusted or not, and how it has fared.
    List {
        #[arg(long)]
        json: bool,
    },
    /// One skill whole: its description, instructions, files and record.
    Show { name: String },
    /// Copy a skill folder (with its SKILL.md) into your skills, as it is.
    Add {
        dir: std::path::PathBuf,
        /// You vouch for it: tasks shown it are not marked as having read untrusted input.
        #[arg(long)]
        trust: bool,
    },
    /// Delete one of your skills.
    Remove { name: String },
    /// Write a new skill's SKILL.md to fill in (prints its path).
    New {
        name: String,
        #[arg(long, default_value = "What this skill does, and when to use it.")]
        description: String,
    },
    /// Turn a skill on.
    On { name: String },
    /// Turn a skill off: it is offered to no task.
    Off { name: String },
    /// Trust one of your skills as its text is now.
    Trust { name: String },
    /// Which skills a small model would be shown for REQUEST, and how near each is to it
    /// in meaning (the five nearest).
    Match { request: String },
    /// Draft a skill from a task that worked (its steps, its values made parameters),
    /// show it, and save it if you say yes.
    Learn {
        task: i64,
        /// Save without asking (after reading the draft yourself).
        #[arg(long)]
        yes: bool,
        /// The name to save it under (else one made from the request).
        #[arg(long)]
        name: Option<String>,
    },
}

pub fn run(home: &ZetaHome, command: SkillsCommand) -> anyhow::Result<ExitCode> {
    let skills = zeta_app::agent::skills(home);
    match command {
        SkillsCommand::List { json } => list(home, &skills, json),
        SkillsCommand::Show { name } => {
            let catalog = skills.current();
            let entry = catalog
                .get(&name)
                .with_context(|| format!("no skill is named `{name}` (see `zeta skills list`)"))?;
            let record = records(home).remove(&name).unwrap_or_default();
            out!("{}", entry.skill.name);
            out!("  {}", entry.skill.description);
            out!("  {}", origin(entry));
            out!(
                "  used {}, succeeded {}, failed {}{}",
                record.used,
                record.succeeded,
                record.failed,
                if record.flagged() {
                    " (keeps failing)"
                } else {
                    ""
                }
            );
            if !entry.skill.files.is_empty() {
                out!("  files: {}", entry.skill.files.join(", "));
            }
            out!("");
            out!("{}", entry.skill.body);
            Ok(ExitCode::SUCCESS)
        }
        SkillsCommand::Add { dir, trust } => {
            let name = skills.add(&dir, trust)?;
            out!(
                "added `{name}`{}",
                if trust {
                    ", trusted"
                } else {
                    "; it came from elsewhere, so a task shown it counts as having read \
                     untrusted input (`zeta skills trust` after reading it)"
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        SkillsCommand::Remove { name } => {
            skills.remove(&name)?;
            out!("removed `{name}`");
            Ok(ExitCode::SUCCESS)
        }
        SkillsCommand::New { name, description } => {
            let skill = skills.write(
                &name,
                &description,
                "# What it gives\n\nThe steps, in order:\n\n```sh\nCOMMAND\n```\n",
                false,
            )?;
            let path = skill
                .folder()
                .map(|d| d.join("SKILL.md"))
                .context("a new skill has a folder")?;
            out!("{}", path.display());
            Ok(ExitCode::SUCCESS)
        }
        SkillsCommand::On { name } => switch(&skills, &name, true),
        SkillsCommand::Off { name } => switch(&skills, &name, false),
        SkillsCommand::Trust { name } => {
            let catalog = skills.current();
            let entry = catalog
                .get(&name)
                .with_context(|| format!("no skill is named `{name}`"))?;
            if entry.skill.is_built_in() {
                out!("`{name}` is built in: trusted already");
            } else {
                skills.trust(&name, &entry.skill.digest)?;
                out!("`{name}` is trusted as it is now");
            }
            Ok(ExitCode::SUCCESS)
        }
        SkillsCommand::Learn { task, yes, name } => learn(home, &skills, task, yes, name),
        SkillsCommand::Match { request } => matched(home, skills, &request),
    }
}

fn matched(
    home: &ZetaHome,
    skills: std::sync::Arc<Skills>,
    request: &str,
) -> anyhow::Result<ExitCode> {
    // Loaded here too, so that a model that is there but does not load is an error, not
    // a list of zeros.
    if let Err(e) = zeta_skills::embed::MiniLm::find(Some(&home.models_dir())) {
        bail!("{e}");
    }
    let note = zeta_app::agent::skills_note(home, skills);
    let workdir = std::env::current_dir().context("the current folder")?;
    let parsed = zeta_core::assist::request::Request::parse(
        request,
        &zeta_core::policy::ShellEnv::current(&workdir),
    );
    let ranked = note.explain(&parsed);
    if ranked.is_empty() {
        out!("no skill a small model may be offered (ZETA_SKILLS_SMALL, or none on)");
        return Ok(ExitCode::SUCCESS);
    }
    let floor = zeta_skills::choose::Tuning::default().template_floor;
    for r in ranked.iter().take(5) {
        let template = format!("  (a template: the request's shape, from {floor:.2})");
        out!(
            "{:.2}  {}{}{}",
            r.similarity,
            r.name,
            if r.template { template.as_str() } else { "" },
            if r.shown { "  (shown)" } else { "" }
        );
    }
    if !ranked.iter().any(|r| r.shown) {
        out!("none is near enough to be shown");
    }
    Ok(ExitCode::SUCCESS)
}

fn switch(skills: &Skills, name: &str, on: bool) -> anyhow::Result<ExitCode> {
    skills.set_enabled(name, on)?;
    out!("`{name}` is {}", if on { "on" } else { "off" });
    Ok(ExitCode::SUCCESS)
}

fn origin(entry: &Entry) -> String {
    let kind = match entry.skill.folder() {
        None => "built in".to_string(),
        Some(dir) => format!("yours ({})", dir.display()),
    };
    format!(
        "{kind}, {}, {}",
        if entry.enabled { "on" } else { "off" },
        if entry.trusted {
            "trusted"
        } else {
            "untrusted"
        }
    )
}

fn records(
    home: &ZetaHome,
) -> std::collections::BTreeMap<String, zeta_core::store::skill_uses::SkillRecord> {
    AuditLog::open(&home.database_file())
        .and_then(|a| a.skill_records())
        .unwrap_or_else(|e| {
            tracing::warn!("could not read the skills' record: {e}");
            Default::default()
        })
}

fn list(home: &ZetaHome, skills: &Skills, json: bool) -> anyhow::Result<ExitCode> {
    let catalog = skills.current();
    let records = records(home);
    if json {
        let entries: Vec<serde_json::Value> = catalog
            .entries
            .iter()
            .map(|e| {
                let r = records.get(&e.skill.name).copied().unwrap_or_default();
                serde_json::json!({
                    "name": e.skill.name,
                    "description": e.skill.description,
                    "builtIn": e.skill.is_built_in(),
                    "enabled": e.enabled,
                    "trusted": e.trusted,
                    "used": r.used, "succeeded": r.succeeded, "failed": r.failed,
                    "flagged": r.flagged(),
                })
            })
            .collect();
        let problems: Vec<serde_json::Value> = catalog
            .problems
            .iter()
            .map(|p| serde_json::json!({"name": p.name, "problem": p.message}))
            .collect();
        out!(
            "{}",
            serde_json::json!({"skills": entries, "problems": problems})
        );
        return Ok(ExitCode::SUCCESS);
    }
    for e in &catalog.entries {
        let r = records.get(&e.skill.name).copied().unwrap_or_default();
        out!(
            "{:<28} {:<9} {:<3} {}{}{}",
            e.skill.name,
            if e.skill.is_built_in() {
                "built in"
            } else {
                "yours"
            },
            if e.enabled { "on" } else { "off" },
            if r.used > 0 {
                format!("used {} ({} ok, {} failed) ", r.used, r.succeeded, r.failed)
            } else {
                String::new()
            },
            if r.flagged() { "KEEPS FAILING " } else { "" },
            if e.trusted { "" } else { "untrusted" }
        );
    }
    for p in &catalog.problems {
        out!("did not load: {}: {}", p.name, p.message);
    }
    Ok(if catalog.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn learn(
    home: &ZetaHome,
    skills: &Skills,
    task: i64,
    yes: bool,
    name: Option<String>,
) -> anyhow::Result<ExitCode> {
    let workdir = zeta_app::agent::user_workdir(home);
    let draft = zeta_skills::learn::draft_from_task(&home.database_file(), task, &workdir)?;
    let name = name.unwrap_or(draft.name);
    out!("A skill from task {task}:\n");
    out!(
        "name: {name}\ndescription: {}\n\n{}",
        draft.description,
        draft.body
    );
    if !yes && !crate::cli::mcp::confirm("Save it as a skill? [y/N] ")? {
        out!("not saved");
        return Ok(ExitCode::from(1));
    }
    if skills
        .current()
        .get(&name)
        .is_some_and(|e| !e.skill.is_built_in())
    {
        bail!("a skill named `{name}` exists already; give another with --name");
    }
    let skill = skills.write(&name, &draft.description, &draft.body, false)?;
    out!(
        "saved `{}` in {}",
        skill.name,
        skill
            .folder()
            .map(|d| d.display().to_string())
            .unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}
