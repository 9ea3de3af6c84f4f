//! zeta-judge: what a shell command line will do, judged before it runs, on a real syntax
//! tree (tree-sitter-bash, as codex-rs does), failing closed. It imports nothing of the
//! rest of Zeta (codex keeps `execpolicy` apart the same way): zeta-core's gate and the
//! tools ask it. Besides the verdict: which commands only read (`read_only`), whose
//! output is only facts about the computer (`provenance`), and which reach the person's
//! desktop session and how (`session`).
//!
//! Every simple command in every construct is visited: lists, pipelines, subshells,
//! groups, functions, `if`/`for`/`while`/`case`, command and process substitution,
//! here-documents fed to a shell, the scripts of `sh -c`/`bash -c`/`su -c`/`eval`, and the
//! commands behind wrappers (`sudo`, `doas`, `pkexec`, `env`, `nice`, `timeout`, `xargs`,
//! `busybox`, `find -exec`, …). Words are expanded where that can be done statically
//! (`~`, `$HOME`, `${HOME:?}`, variables assigned earlier in the line, `$(echo ~)`, brace
//! expansion, `$'\x..'`, `cd` before a relative target) and paths are normalised. The
//! rules (`rules.rs`) are data: program, argument pattern, target class → block or ask.
//!
//! - `Block`: never runs, whatever the settings.
//! - `Ask`: what it does cannot be known statically (a program name from a variable, a
//!   decoded payload fed to a shell, a recursive delete of a computed path): it is never
//!   run unattended; only a person may approve it.
//! - `Allow`: the permission policy decides as usual.
//!
//! The walk is linear in the line's length (nested scripts are re-parsed at most
//! `MAX_DEPTH` deep), and a line over `MAX_COMMAND_BYTES` is refused.

mod awk;
pub mod catalogue;
mod findings;
mod interp;
pub mod provenance;
pub mod read_only;
mod reads_nothing;
pub use reads_nothing::reads_nothing;
mod rules;
mod seen;
pub use seen::{Pipe, Seen, Simple};
pub mod session;
mod targets;
mod walk;
pub mod words;

#[cfg(test)]
mod cases;
#[cfg(test)]
pub mod corpus;
#[cfg(test)]
mod fuzz;

use std::path::{Path, PathBuf};

pub use catalogue::AWKS;
pub use interp::is_interpreter;
pub use targets::HOME_STARTUP;
pub use words::normalize;

/// The longest command line judged; a longer one is refused, saying why.
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

/// Why a command is refused or needs a person: the rule (a unique id: searching the
/// judge's source for it finds the rule's code, and `cases.rs` its examples) and what
/// it saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub reason: String,
}

/// A refusal (kept under its old name).
pub type Blocked = Finding;

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "blocked (rule `{}`): {}", self.rule, self.reason)
    }
}

impl Finding {
    /// As a question's reason: what it saw, then the rule.
    pub fn asked(&self) -> String {
        format!("{} (rule `{}`)", self.reason, self.rule)
    }
}

/// What the judge says about a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// Only a person may approve it; the reason says what could not be known.
    Ask(Finding),
    Block(Finding),
}

impl Verdict {
    /// The deciding rule, when one decided.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Verdict::Allow => None,
            Verdict::Ask(f) | Verdict::Block(f) => Some(f.rule),
        }
    }
}

impl Verdict {
    /// The stronger of two verdicts: a block over an ask over an allow.
    fn and(self, other: Verdict) -> Verdict {
        match (self, other) {
            (b @ Verdict::Block(_), _) | (_, b @ Verdict::Block(_)) => b,
            (a @ Verdict::Ask(_), _) | (_, a @ Verdict::Ask(_)) => a,
            _ => Verdict::Allow,
        }
    }
}

/// Where a command would run: the user's home and the working folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellEnv {
    pub home: PathBuf,
    pub cwd: PathBuf,
    /// The user's login name, for `$USER` and `/home/$USER`.
    pub user: String,
}

impl ShellEnv {
    /// This process's home and user, with commands running in `cwd`.
    pub fn current(cwd: &Path) -> Self {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/root"));
        let user = std::env::var("USER")
            .ok()
            .filter(|u| !u.is_empty())
            .or_else(|| home.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        Self {
            home,
            cwd: cwd.to_path_buf(),
            user,
        }
    }
}

/// Judges one command line (or a whole script) as `bash -c` would run it in `env`.
pub fn judge(line: &str, env: &ShellEnv) -> Verdict {
    judge_with_writes(line, env).0
}

/// `judge`, and the paths the line writes that are known before it runs (absolute).
pub fn judge_with_writes(line: &str, env: &ShellEnv) -> (Verdict, Vec<PathBuf>) {
    if line.len() > MAX_COMMAND_BYTES {
        let verdict = Verdict::Block(Finding {
            rule: "too-long",
            reason: format!(
                "the command is {} bytes, over the {MAX_COMMAND_BYTES} bytes Zeta checks; write \
                 long content with write_file, or split the work into shorter commands",
                line.len()
            ),
        });
        return (verdict, Vec::new());
    }
    let mut walker = walk::Walker::new(env);
    let verdict = walker.script(line);
    (verdict, walker.seen.write_targets)
}

/// The paths `line` only appends to (`>> FILE`), known before it runs: they are among
/// `judge_with_writes`' paths, but what they held stays.
pub fn appended_paths(line: &str, env: &ShellEnv) -> Vec<PathBuf> {
    if line.len() > MAX_COMMAND_BYTES {
        return Vec::new();
    }
    let mut walker = walk::Walker::new(env);
    let _ = walker.script(line);
    walker.seen.append_targets
}

/// `text` as one shell word in single quotes.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A path as a shell word, with a leading `~/` left for the shell to expand.
pub fn quote_path(path: &str) -> String {
    match path.strip_prefix("~/") {
        Some(rest) => format!("~/{}", quote(rest)),
        None if path == "~" => "~".to_string(),
        None => quote(path),
    }
}

/// `Err` when `line` never runs (judged as if run in the home folder); a line that would
/// only ask is `Ok`. For callers that only need the blocklist.
pub fn check_command(line: &str) -> Result<(), Blocked> {
    let env = ShellEnv::current(Path::new("/"));
    let env = ShellEnv {
        cwd: env.home.clone(),
        ..env
    };
    match judge(line, &env) {
        Verdict::Block(b) => Err(b),
        _ => Ok(()),
    }
}

/// What a command line does, collected without judging (`Seen`): the programs it runs
/// (base names, wrappers such as `sudo` unwrapped and kept, `?` for one whose name is
/// computed when it runs), the words they get as the shell will pass them (quotes
/// removed, values expanded where that is static), whether output is redirected into a
/// file (or an awk program may write), and what it asks of the desktop session. `None`
/// for a line too long to read.
pub fn seen(line: &str) -> Option<Seen> {
    seen_in(line, &ShellEnv::current(Path::new("/")))
}

/// `seen`, with `env`'s home, user and folder for `~`, `$HOME` and relative names.
fn seen_in(line: &str, env: &ShellEnv) -> Option<Seen> {
    if line.len() > MAX_COMMAND_BYTES {
        return None;
    }
    let mut walker = walk::Walker::new(env);
    walker.findings.collect_only = true;
    let _ = walker.script(line);
    Some(walker.seen)
}

/// Each `A | B` of simple commands in `line`, with `env`'s home and user for `~` and
/// `$HOME` (`Seen::pipes`); none for a line too long to read.
pub fn pipes(line: &str, env: &ShellEnv) -> Vec<Pipe> {
    seen_in(line, env).map(|s| s.pipes).unwrap_or_default()
}

/// Each simple command in `line` where the whole line could be parsed; none otherwise.
pub(crate) fn commands_parsed(line: &str, env: &ShellEnv) -> Vec<Simple> {
    seen_in(line, env)
        .filter(|s| !s.partial)
        .map(|s| s.commands)
        .unwrap_or_default()
}

/// Each simple command in `line`, with `env`'s home and user for `~` and `$HOME`
/// (`Seen::commands`); none for a line too long to read.
pub fn commands(line: &str, env: &ShellEnv) -> Vec<Simple> {
    seen_in(line, env).map(|s| s.commands).unwrap_or_default()
}

/// The programs a command line runs, and whether it writes (`seen`). Used to label a
/// command's risk and to tell output that only describes the computer.
pub fn programs(line: &str) -> (Vec<String>, bool) {
    seen(line).map_or((Vec::new(), true), |s| (s.programs, s.writes))
}
