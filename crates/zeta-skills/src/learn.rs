//! A skill drafted from a task that worked: the request generalised and the steps that
//! ran and worked, with the task's concrete values — the paths it named, its numbers,
//! its quoted texts — turned into parameters (DIR, FILE, N, TEXT…) wherever they appear.
//! The draft is only a proposal: it is saved when the person accepts it (`Skills::write`),
//! after they may edit it. The task's values are not kept in it (a value shown as an
//! example is one a small model copies).

use std::path::Path;

use zeta_core::assist::request::Request;
use zeta_core::assist::values::{values, Value};
use zeta_core::policy::ShellEnv;
use zeta_core::store::audit::AuditEntry;

/// Steps kept at most.
const MOST_STEPS: usize = 12;

/// A proposed skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub name: String,
    pub description: String,
    pub body: String,
    /// The parameters, each with what it stands for (not its value in the task).
    pub parameters: Vec<(String, String)>,
}

/// One concrete value of the task and the parameter it becomes.
struct Param {
    /// The forms it was written in (as in the request, and where it points).
    forms: Vec<String>,
    name: String,
    meaning: &'static str,
}

/// Why a task cannot be learned from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotLearnable {
    #[error("the task ran no step that worked, so there is nothing to repeat")]
    NoSteps,
    #[error("task {0}: {1}; a skill is learned only from a task that worked")]
    DidNotWork(i64, zeta_core::store::skill_uses::NotWorked),
    #[error("task {0}: {1}")]
    Store(i64, String),
}

/// Drafts a skill from task `task_id` in the database `db`, when it worked (done,
/// nothing told as not done, not undone); `workdir`: where its commands ran.
pub fn draft_from_task(db: &Path, task_id: i64, workdir: &Path) -> Result<Draft, NotLearnable> {
    let store = |e: zeta_core::CoreError| NotLearnable::Store(task_id, e.to_string());
    let audit = zeta_core::store::audit::AuditLog::open(db).map_err(store)?;
    audit
        .worked(task_id)
        .map_err(store)?
        .map_err(|why| NotLearnable::DidNotWork(task_id, why))?;
    let task = zeta_core::store::queue::TaskQueue::open(db)
        .and_then(|q| q.get(task_id))
        .map_err(store)?;
    let calls = audit.for_task(task_id).map_err(store)?;
    draft(&task.message, &calls, &ShellEnv::current(workdir))
}

/// Drafts a skill from a task's `request` and its audited `calls`; `env`: where its
/// commands ran (to tell a path as written from where it points).
pub fn draft(request: &str, calls: &[AuditEntry], env: &ShellEnv) -> Result<Draft, NotLearnable> {
    let steps: Vec<String> = calls
        .iter()
        .filter(|c| c.ok && c.state != "running" && worked(&c.decision))
        .filter_map(step_of)
        .fold(Vec::new(), |mut kept, step| {
            if kept.last() != Some(&step) {
                kept.push(step);
            }
            kept
        });
    if steps.is_empty() {
        return Err(NotLearnable::NoSteps);
    }
    let params = parameters(request, env);
    let general = |text: &str| {
        let mut out = text.to_string();
        for p in &params {
            for form in &p.forms {
                out = replace_value(&out, form, &p.name);
            }
        }
        out
    };
    let description = general(request.trim());
    let steps: Vec<String> = steps.iter().take(MOST_STEPS).map(|s| general(s)).collect();
    let mut body = String::new();
    if !params.is_empty() {
        body.push_str("Parameters (replace each with what the request names):\n");
        for p in &params {
            body.push_str(&format!("- {}: {}\n", p.name, p.meaning));
        }
        body.push('\n');
    }
    body.push_str("The steps that worked:\n\n```sh\n");
    body.push_str(&steps.join("\n"));
    body.push_str("\n```\n");
    Ok(Draft {
        name: name_of(&description),
        description,
        body,
        parameters: params
            .iter()
            .map(|p| (p.name.clone(), p.meaning.to_string()))
            .collect(),
    })
}

/// A call whose decision let it run as asked.
fn worked(decision: &str) -> bool {
    matches!(
        decision,
        "allowed" | "plan-approved" | "asked-approved" | "user-allowed"
    )
}

/// A call as a step: a command as it ran; another tool as `tool {arguments}`. Zeta's own
/// bookkeeping (a plan, a question, progress, reading a skill) is not a step.
fn step_of(call: &AuditEntry) -> Option<String> {
    if matches!(
        call.tool.as_str(),
        "propose_plan" | "ask_user" | "progress" | "skill" | "memory_save"
    ) {
        return None;
    }
    let args: serde_json::Value = serde_json::from_str(&call.arguments).ok()?;
    if let Some(command) = args.get("command").and_then(|c| c.as_str()) {
        return Some(command.trim().to_string());
    }
    Some(format!("{} {}", call.tool, args))
}

/// The request's concrete values as parameters: paths (DIR or FILE by what they are),
/// quoted texts (TEXT), numbers (N); several of a kind are numbered.
fn parameters(request: &str, env: &ShellEnv) -> Vec<Param> {
    let parsed = Request::parse(request, env);
    let mut params: Vec<Param> = Vec::new();
    let mut counts = std::collections::HashMap::new();
    let mut push =
        |forms: Vec<String>, kind: &'static str, meaning: &'static str, params: &mut Vec<Param>| {
            let forms: Vec<String> = forms.into_iter().filter(|f| !f.is_empty()).collect();
            if forms.is_empty()
                || params
                    .iter()
                    .any(|p| p.forms.iter().any(|f| forms.contains(f)))
            {
                return;
            }
            let n = counts.entry(kind).or_insert(0);
            *n += 1;
            params.push(Param {
                forms,
                name: kind.to_string(),
                meaning,
            });
        };
    for named in &parsed.paths {
        let (kind, meaning) = if named.path.is_dir() {
            ("DIR", "a folder")
        } else {
            ("FILE", "a file")
        };
        let mut forms = vec![named.text.clone(), named.path.display().to_string()];
        if let Ok(rel) = named.path.strip_prefix(&env.home) {
            forms.push(format!("~/{}", rel.display()));
            forms.push(format!("$HOME/{}", rel.display()));
        }
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        forms.dedup();
        push(forms, kind, meaning, &mut params);
    }
    for quoted in quoted(request) {
        push(
            vec![quoted],
            "TEXT",
            "a text the request gives",
            &mut params,
        );
    }
    for value in values(request) {
        if let Value::Number(written, _) = value {
            push(
                vec![written],
                "N",
                "a number the request gives",
                &mut params,
            );
        }
    }
    // Several of a kind: FILE1, FILE2…
    for kind in ["DIR", "FILE", "TEXT", "N"] {
        if counts.get(kind).copied().unwrap_or(0) > 1 {
            let mut i = 0;
            for p in params.iter_mut().filter(|p| p.name == kind) {
                i += 1;
                p.name = format!("{kind}{i}");
            }
        }
    }
    params
}

/// The texts in quotes ('…', "…", “…”), in the order they are written.
fn quoted(text: &str) -> Vec<String> {
    let mut found: Vec<(usize, String)> = Vec::new();
    for (open, close) in [('"', '"'), ('\'', '\''), ('“', '”')] {
        let mut rest = text;
        while let Some(start) = rest.find(open) {
            let at = text.len() - rest.len() + start;
            let after = &rest[start + open.len_utf8()..];
            // An apostrophe inside a word ("don't") opens nothing.
            if open == '\''
                && rest[..start]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
            {
                rest = after;
                continue;
            }
            let Some(end) = after.find(close) else { break };
            let inner = &after[..end];
            if !inner.trim().is_empty() && inner.len() <= 200 {
                found.push((at, inner.to_string()));
            }
            rest = &after[end + close.len_utf8()..];
        }
    }
    found.sort();
    found.into_iter().map(|(_, t)| t).collect()
}

/// `text` with each whole occurrence of `value` (not inside a longer word or number)
/// replaced by `name`.
fn replace_value(text: &str, value: &str, name: &str) -> String {
    let numeric = value.chars().all(|c| c.is_ascii_digit() || c == '.');
    let glued = |c: Option<char>, beyond: Option<char>| match c {
        Some(c) if c.is_alphanumeric() || c == '_' => true,
        // `2` in `2.5` or `1.2`: part of a longer number.
        Some('.' | ',') => numeric && beyond.is_some_and(|b| b.is_ascii_digit()),
        _ => false,
    };
    let starts_word = value.chars().next().is_some_and(|c| c.is_alphanumeric());
    let ends_word = value
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric());
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(value) {
        let head = &rest[..i];
        let tail = &rest[i + value.len()..];
        let mut back = if i > 0 {
            head.chars().rev()
        } else {
            "".chars().rev()
        };
        let (before, before2) = if i > 0 {
            (back.next(), back.next())
        } else {
            (out.chars().next_back(), None)
        };
        let mut ahead = tail.chars();
        let (after, after2) = (ahead.next(), ahead.next());
        let whole = !(starts_word && glued(before, before2) || ends_word && glued(after, after2));
        out.push_str(head);
        out.push_str(if whole { name } else { value });
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// A skill name from a description: its first words, lower case, hyphened.
fn name_of(description: &str) -> String {
    let words: Vec<String> = description
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            !w.is_empty()
                && !w
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        })
        .map(|w| w.to_lowercase())
        .filter(|w| w.is_ascii())
        .take(6)
        .collect();
    let mut name = words.join("-");
    name.truncate(crate::format::MOST_NAME);
    let name = name.trim_matches('-').to_string();
    if name.is_empty() {
        "learned-skill".to_string()
    } else {
        name
    }
}

#[cfg(test)]
mod tests;
