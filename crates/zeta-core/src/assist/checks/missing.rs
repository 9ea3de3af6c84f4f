//! `missing-path`: the answer speaks of a path that is not on this computer, one the
//! task's own calls guessed (`/home/user/projects` for "my projects folder",
//! `/var/log/syslog` for "my server.log"): what a command printed of it was an error or
//! nothing, and an answer built on it ("there are no empty files in
//! /home/user/projects", "no WARN entries in /var/log/syslog") says what nobody saw.
//! Paths nothing of the task named are `ungrounded-path`'s.

use std::path::Path;

use super::answers::{anchored, UngroundedPath};
use super::{Case, Check, Finding, Honest};
use crate::assist::request::{path_words, resolve};

pub struct MissingPath;

impl MissingPath {
    /// The answer's paths (`~/…`, `$HOME/…`, `/…`) not on this computer, as written, that
    /// the request did not name, nor a path in them, nor a place in a folder it named by
    /// that place's own name ("is there a report.txt in ~/docs?") — its premise: the
    /// answer may say it is not there — that no effect of the task touched (deleted,
    /// moved away) and that `ungrounded-path` does not judge. A file made up in the
    /// folder the request named is held (seen: "~/docs/last_year_tasmania.txt mentions
    /// Tasmania", a name the model then wrote into its own program).
    pub fn missing(case: &Case) -> Vec<String> {
        let unfounded = UngroundedPath::unfounded(case);
        let touched: Vec<&Path> = case.evidence.effects().flat_map(|e| e.touches()).collect();
        let mut out: Vec<String> = Vec::new();
        for (_, path) in path_words(case.answer) {
            if !anchored(&path) || out.contains(&path) || unfounded.contains(&path) {
                continue;
            }
            let at = resolve(&path, case.env);
            let asked = case.request.paths.iter().any(|p| {
                p.path.starts_with(&at)
                    || at
                        .strip_prefix(&p.path)
                        .is_ok_and(|below| case.request.text.contains(&*below.to_string_lossy()))
            });
            let affected = touched
                .iter()
                .any(|t| t.starts_with(&at) || at.starts_with(t));
            if !asked && !affected && !at.exists() {
                out.push(path);
            }
        }
        out
    }
}

impl Check for MissingPath {
    fn name(&self) -> &'static str {
        "missing-path"
    }
    fn cap(&self) -> u32 {
        1
    }
    fn judge(&self, case: &Case) -> Option<Finding> {
        case.evidence.ran().next()?;
        let paths = Self::missing(case);
        if paths.is_empty() {
            return None;
        }
        let list = paths.join(", ");
        let home = case.env.home.display().to_string();
        Some(Finding {
            message: crate::prompts::fill(
                crate::prompts::CHECK_MISSING_PATH,
                &[("paths", &list), ("home", &home)],
            ),
            honest: Honest::After(format!("(Not so: {list} does not exist on this computer.)")),
        })
    }
}
