//! The checks of what the request asks to change, held against the calls' effects:
//! `held-back`, `asked-change`, `asked-target`, `asked-source`, `written-differs`,
//! `changes-unsaid`.

use super::{
    call_shown, changing_calls, effects_to_model, effects_to_person, sources, Case, Check, Finding,
    Honest,
};
use crate::assist::evidence::Effect;
use crate::assist::request::Leaves;
use crate::assist::values::{ungrounded, values, Value};

/// A change the request orders was held back (the person did not allow it, or the
/// policy refused it) and nothing changed: the answer must say it is not done, not try
/// again.
pub struct HeldBack;

impl Check for HeldBack {
    fn name(&self) -> &'static str {
        "held-back"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let e = case.evidence;
        if !case.held_back || !case.request.asks_change || e.effects().next().is_some() {
            return None;
        }
        // Done in the window after all, as the window shows (seen: a command refused,
        // then Rex typed into the Pet dialog and OK pressed, and "Not done: a change
        // was not allowed" before it).
        if super::done_in_window(&e.calls, &case.env.home, &case.env.cwd) {
            return None;
        }
        let calls = changing_calls(e);
        let first = e
            .calls
            .iter()
            .find(|c| c.changes && !c.ran)
            .map(|c| {
                call_shown(c)
                    .trim_start_matches(['✓', '✗', ' '])
                    .to_string()
            })
            .unwrap_or_default();
        Some(Finding {
            message: crate::prompts::fill(crate::prompts::CHECK_HELD_BACK, &[("calls", &calls)]),
            honest: Honest::Before(format!("Not done: a change was not allowed ({first}).")),
        })
    }
}

/// The request orders a change, and no call changed anything: no file effect was seen,
/// and no call that changes things worked.
pub struct AskedChange;

impl Check for AskedChange {
    fn name(&self) -> &'static str {
        "asked-change"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        2
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        let e = case.evidence;
        if !case.request.asks_change || case.held_back || e.calls.is_empty() {
            return None;
        }
        // A change asked of a window is judged by what the window shows after each act
        // (`act-not-shown`), or by whether anything was done in it (`window-untouched`),
        // not by files: no file changes when a label is typed.
        if case.window.is_some() || e.calls.iter().any(|c| c.read_back.is_some()) {
            return None;
        }
        // Paths it asks to be written that do not show it are `asked-target`'s, which
        // names them. Targets that hold already ("make ~/run.sh executable": it exists)
        // do not show that anything was done.
        if !AskedTarget::unmet(case).is_empty() {
            return None;
        }
        // A call that worked and could change things, where no file effect shows (a
        // process stopped, a setting changed): only an unmet change when the request is
        // about files it names.
        if e.effects().next().is_some() || e.changed_ok() && case.request.paths.is_empty() {
            return None;
        }
        let calls = changing_calls(e);
        let ran = if calls.is_empty() {
            "No command that changes anything ran.".to_string()
        } else {
            format!("What ran:\n{calls}")
        };
        Some(Finding {
            message: crate::prompts::fill(crate::prompts::CHECK_ASKED_CHANGE, &[("ran", &ran)]),
            honest: Honest::Instead(format!(
                "I did not do this: nothing changed on this computer during the task.\n{ran}"
            )),
        })
    }
}

/// A path the request asks to be written, made, moved or copied into does not show it.
pub struct AskedTarget;

impl AskedTarget {
    /// Each target that does not show what the request asks, with whether it wants text.
    pub(super) fn unmet(case: &Case) -> Vec<(String, bool)> {
        let mut facts = Vec::new();
        for target in &case.request.targets {
            let text = &target.text;
            // Met at any place the target may point.
            let facts_at: Vec<Option<String>> = target
                .paths
                .iter()
                .map(|path| match std::fs::metadata(path) {
                    Err(_) => Some(format!("{text} does not exist")),
                    Ok(m) if target.wants_text && m.is_file() && m.len() == 0 => {
                        Some(format!("{text} is empty"))
                    }
                    Ok(_) if target.moved_in => {
                        let arrived = case
                            .evidence
                            .effects_at(path)
                            .any(|e| matches!(e, Effect::Moved { to, .. } if to.starts_with(path)));
                        (!arrived).then(|| format!("nothing was moved to {text} during this task"))
                    }
                    Ok(_) if target.exists_only => None,
                    Ok(_) => {
                        let landed = case
                            .evidence
                            .effects_at(path)
                            .any(|e| e.lands_at().is_some());
                        (!landed).then(|| format!("{text} was not written during this task"))
                    }
                })
                .collect();
            if facts_at.iter().all(Option::is_some) {
                if let Some(Some(fact)) = facts_at.into_iter().next() {
                    facts.push((fact, target.wants_text));
                }
            }
        }
        facts
    }
}

impl Check for AskedTarget {
    fn name(&self) -> &'static str {
        "asked-target"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        2
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        if case.held_back || case.evidence.calls.is_empty() {
            return None;
        }
        let unmet = Self::unmet(case);
        if unmet.is_empty() {
            return None;
        }

        // The one number the answer gives, where an output printed it: the command that
        // writes it (never a value the outputs do not show).
        let sources = sources(case);
        let source_refs: Vec<&str> = sources.iter().map(String::as_str).collect();
        let numbers: Vec<Value> = values(case.answer)
            .into_iter()
            .filter(|v| matches!(v, Value::Number(..)))
            .collect();
        let mut fixes = Vec::new();
        if let [number] = numbers.as_slice() {
            if ungrounded(number.as_written(), &source_refs).is_empty() {
                for target in case.request.targets.iter().filter(|t| t.wants_text) {
                    if unmet.iter().any(|(f, _)| f.starts_with(&target.text)) {
                        fixes.push(format!("echo {} > {}", number.as_written(), target.text));
                    }
                }
            }
        }
        // Landed at the wrong place under the name asked (`mv ~/inbox/list.txt memo.txt`
        // from the home): the move that puts it where the request asks.
        for target in &case.request.targets {
            if unmet.iter().any(|(f, _)| f.starts_with(&target.text)) {
                fixes.extend(misplaced(case, &target.text, &target.paths));
            }
        }
        let facts: Vec<String> = unmet.into_iter().map(|(f, _)| f).collect();
        let changed = effects_to_model(case.evidence, &case.env.home);
        let went = effects_to_person(case.evidence, &case.env.home);
        Some(Finding {
            message: unmet_request(&facts, &changed, &fixes),
            honest: if case.request.asks_to_be_told {
                Honest::Before(format!("Not done: {}.{went}", facts.join("; ")))
            } else {
                Honest::Instead(format!(
                    "I did not finish this: {}.{went}{}",
                    facts.join("; "),
                    match changing_calls(case.evidence) {
                        c if c.is_empty() => String::new(),
                        c => format!("\nWhat ran:\n{c}"),
                    }
                ))
            },
        })
    }
}

/// The move that puts what a call left at the wrong place, under the name a target asks
/// for, where the target is (`mv ~/memo.txt ~/inbox/memo.txt`): only where the target
/// is not there or was made during the task (nothing the person had is overwritten), and
/// only for paths a shell line takes as written (no quoting guessed).
fn misplaced(case: &Case, text: &str, paths: &[std::path::PathBuf]) -> Option<String> {
    let plain = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._/~-+".contains(c))
    };
    if !plain(text) {
        return None;
    }
    paths.iter().find_map(|path| {
        let name = path.file_name()?;
        let made_here = case
            .evidence
            .effects_at(path)
            .any(|e| matches!(e, Effect::Created(p) if p == path));
        if path.exists() && !made_here {
            return None;
        }
        let stray = case.evidence.effects().find_map(|e| {
            let at = e.lands_at()?;
            (at != path.as_path() && at.file_name() == Some(name) && at.exists()).then_some(at)
        })?;
        let shown = crate::assist::request::tilde(stray, case.env);
        plain(&shown).then(|| format!("mv {shown} {text}"))
    })
}

/// Sent back when a path the request asks to be written does not show it, with the
/// commands that would write it where they are known. "Your whole answer": after the
/// write, the model's next answer said only that it wrote, and lost the count the
/// request had asked for first.
fn unmet_request(unmet: &[String], changed: &str, fixes: &[String]) -> String {
    let how = if fixes.is_empty() {
        "Run the command that does it now (for example with >, cp or mv).".to_string()
    } else {
        // On a line of its own: after it in the sentence, the model ran "mv ~/memo.txt
        // ~/inbox/memo.txt; then give your whole answer again, …" as the command.
        format!("Run this command now:\n{}", fixes.join(" && "))
    };
    crate::prompts::fill(
        crate::prompts::CHECK_ASKED_TARGET,
        &[
            ("facts", &unmet.join("; ")),
            ("changed", changed),
            ("how", &how),
        ],
    )
}

/// A path the request asks things to be moved out of, or deleted in, shows nothing left
/// it ("move every .csv file from ~/projects into it", answered after `cp`: the files
/// are still there).
pub struct AskedSource;

impl Check for AskedSource {
    fn name(&self) -> &'static str {
        "asked-source"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        2
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        // Nothing changed at all is `asked-change`'s.
        if case.held_back || case.evidence.effects().next().is_none() {
            return None;
        }
        let facts: Vec<String> = case
            .request
            .sources
            .iter()
            .filter(|s| s.named.path.exists() || s.leaves == Leaves::Moved)
            .filter(|s| {
                !case.evidence.effects_at(&s.named.path).any(|e| {
                    matches!(e, Effect::Deleted(_))
                        || matches!(e, Effect::Moved { from, .. } if from.starts_with(&s.named.path))
                })
            })
            .map(|s| match s.leaves {
                Leaves::Moved => format!("nothing was moved out of {}", s.named.text),
                Leaves::Deleted => format!("nothing was deleted in {}", s.named.text),
            })
            .collect();
        if facts.is_empty() {
            return None;
        }
        let text = facts.join("; ");
        let changed = effects_to_model(case.evidence, &case.env.home);
        let went = effects_to_person(case.evidence, &case.env.home);
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_ASKED_SOURCE,
                &[("facts", &text), ("changed", &changed)],
            ),
            honest: Honest::Before(format!("Not done: {text}.{went}")),
        })
    }
}

/// A file the request asks text to be written into, written during the task, holds one
/// short line that carries a value the answer gives and more besides, and the answer
/// does not say that line ("I wrote 35 into ~/count.txt" where `wc -l` left
/// `35 /home/me/invoice.txt`): what was written is not what the answer says. Judged on
/// the file as it is when the answer comes.
pub struct WrittenDiffers;

/// The longest line `written-differs` judges (a longer one is a text, not a value).
const WRITTEN_LINE_CHARS: usize = 200;

impl WrittenDiffers {
    /// The file as the request wrote it, its line, and the answer's value it carries.
    fn differs(case: &Case) -> Option<(String, String, String)> {
        let given: Vec<String> = values(case.answer)
            .iter()
            .map(|v| v.as_written().to_string())
            .collect();
        if given.is_empty() {
            return None;
        }
        let plain = |t: &str| {
            t.to_lowercase()
                .split(|c: char| c.is_whitespace() || "'\"`".contains(c))
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let answer = plain(case.answer);
        for target in case.request.targets.iter().filter(|t| t.wants_text) {
            for path in &target.paths {
                let written = case
                    .evidence
                    .effects_at(path)
                    .any(|e| e.lands_at() == Some(path.as_path()));
                if !written {
                    continue;
                }
                let Ok(bytes) = std::fs::read(path) else {
                    continue;
                };
                let Ok(text) = String::from_utf8(bytes) else {
                    continue;
                };
                let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                let [line] = lines.as_slice() else {
                    continue;
                };
                let line = line.trim();
                if line.chars().count() > WRITTEN_LINE_CHARS || answer.contains(&plain(line)) {
                    continue;
                }
                let words: Vec<&str> = line.split_whitespace().collect();
                if words.len() < 2 {
                    continue;
                }
                if let Some(value) = given.iter().find(|v| words.contains(&v.as_str())) {
                    return Some((target.text.clone(), line.to_string(), value.clone()));
                }
            }
        }
        None
    }
}

impl Check for WrittenDiffers {
    fn name(&self) -> &'static str {
        "written-differs"
    }
    fn of_effects(&self) -> bool {
        true
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        if case.held_back {
            return None;
        }
        let (file, holds, value) = Self::differs(case)?;
        let shown = crate::text::clip(&holds, 120);
        // The command that writes it, from the answer's value and the request's path
        // (seen: told to "write only that", a small model ran `echo 35`, which writes
        // nothing); a path or value the shell would read otherwise gets the words alone.
        let plain = |t: &str| {
            !t.is_empty()
                && t.chars()
                    .all(|c| c.is_alphanumeric() || "~/._-+:,@%".contains(c))
        };
        let how = if plain(&file) && plain(&value) {
            format!(": printf '%s\\n' '{value}' > {file}")
        } else {
            " (with a command that prints nothing else)".to_string()
        };
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_WRITTEN_DIFFERS,
                &[
                    ("file", &file),
                    ("holds", &shown),
                    ("value", &value),
                    ("how", &how),
                ],
            ),
            honest: Honest::After(format!(
                "(I did not write {value} alone: {file} holds \"{shown}\".)"
            )),
        })
    }
}

/// The request orders a change, the calls made some, and the answer names none of the
/// paths they touched ("The command completed successfully." for a replacement in
/// ~/budget.txt): never sent back, the person is told what changed.
pub struct ChangesUnsaid;

/// Changes listed at most.
const CHANGES_SAID: usize = 5;

impl Check for ChangesUnsaid {
    fn name(&self) -> &'static str {
        "changes-unsaid"
    }
    fn cap(&self) -> u32 {
        0
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        if !case.request.asks_change {
            return None;
        }
        let effects: Vec<&Effect> = case.evidence.effects().collect();
        if effects.is_empty() {
            return None;
        }
        let answer = case.answer.to_lowercase();
        let named = effects.iter().flat_map(|e| e.touches()).any(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().to_lowercase())
                .is_some_and(|n| answer.contains(&n))
        });
        if named {
            return None;
        }
        let mut said: Vec<String> = effects
            .iter()
            .take(CHANGES_SAID)
            .map(|e| e.describe(&case.env.home))
            .collect();
        if effects.len() > CHANGES_SAID {
            said.push(format!("and {} more", effects.len() - CHANGES_SAID));
        }
        Some(Finding {
            message: String::new(),
            honest: Honest::After(format!("(What changed: {}.)", said.join(", "))),
        })
    }
}
