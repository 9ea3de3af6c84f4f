//! What the task's calls did, as the loop saw it: for each call, the tool, whether it
//! ran and worked, what it printed, and the files it created, changed, moved or deleted.
//!
//! File effects come from a look before and after each call that can change things, at
//! the folders it could have touched: the home and working folder (their entries, not
//! deeper), the folders of every path the call's arguments name (a shell command's words
//! included, globs cut at their first wildcard), and those of the paths the request
//! names. A folder that appears during the call is read after it too, so what was moved
//! into a new folder is seen. Entries are compared by inode, size, time and mode; a path
//! deleted and one created with the same inode are a move. What a call changes outside
//! those folders is not seen (a script writing deep elsewhere): the finisher only ever
//! holds an answer against effects it could see, never against their absence alone
//! where the call could have acted unseen (see `checks`).

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::policy::ShellEnv;

/// Entries read per folder at most; folders watched per call at most.
const ENTRIES_PER_FOLDER: usize = 4096;
const FOLDERS_PER_CALL: usize = 48;
/// What is kept of a call's output.
const OUTPUT_KEPT: usize = 16 * 1024;

/// One file effect a call had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Created(PathBuf),
    /// Its content, size or mode changed.
    Changed(PathBuf),
    Deleted(PathBuf),
    Moved {
        from: PathBuf,
        to: PathBuf,
    },
}

impl Effect {
    /// The path the effect left something at (`None` for a deletion).
    pub fn lands_at(&self) -> Option<&Path> {
        match self {
            Effect::Created(p) | Effect::Changed(p) => Some(p),
            Effect::Moved { to, .. } => Some(to),
            Effect::Deleted(_) => None,
        }
    }

    /// The paths the effect touched.
    pub fn touches(&self) -> Vec<&Path> {
        match self {
            Effect::Created(p) | Effect::Changed(p) | Effect::Deleted(p) => vec![p],
            Effect::Moved { from, to } => vec![from, to],
        }
    }

    /// In words, with the home as `~`.
    pub fn describe(&self, home: &Path) -> String {
        let show = |p: &Path| match p.strip_prefix(home) {
            Ok(rest) => format!("~/{}", rest.display()),
            Err(_) => p.display().to_string(),
        };
        match self {
            Effect::Created(p) => format!("created {}", show(p)),
            Effect::Changed(p) => format!("changed {}", show(p)),
            Effect::Deleted(p) => format!("deleted {}", show(p)),
            Effect::Moved { from, to } => format!("moved {} to {}", show(from), show(to)),
        }
    }
}

/// One call of the task.
#[derive(Debug, Clone)]
pub struct CallEvidence {
    pub tool: String,
    /// The call in one line, marked ✓ (worked) or ✗.
    pub line: String,
    /// The tool ran (it was not refused, denied or held back).
    pub ran: bool,
    /// A person or the permission settings kept it from running (asked and refused,
    /// denied, blocked, skipped): not a call too malformed to run.
    pub held: bool,
    pub ok: bool,
    /// The call can change things (its tool said so for these arguments).
    pub changes: bool,
    /// What it printed, as the tool returned it.
    pub output: String,
    pub effects: Vec<Effect>,
    /// For a call aimed at a window: what the window showed after it.
    pub read_back: Option<crate::tool::ReadBack>,
    /// What the window or screen a call read shows (`ToolOutput::shows`): counted as
    /// printed instead of its output, which holds Zeta's framing.
    pub shows: Option<String>,
    /// The program written for the task it ran, where it ran one (`program_of`).
    pub program: Option<String>,
}

impl CallEvidence {
    /// What it printed, its shell framing left out; for a call that read a window, what
    /// the window shows (`shows`).
    pub fn printed(&self) -> String {
        match &self.shows {
            Some(shows) => shows.clone(),
            None => printed_text(&self.output),
        }
    }
}

#[cfg(test)]
impl CallEvidence {
    /// For tests: a shell call that ran, as `line` ("✓ shell …"), that `changes` things or
    /// not, worked or not, printed `output` and had `effects`.
    pub fn shell(line: &str, changes: bool, ok: bool, output: &str, effects: Vec<Effect>) -> Self {
        Self {
            tool: "shell".into(),
            line: line.into(),
            ran: true,
            held: false,
            ok,
            changes,
            output: output.into(),
            effects,
            read_back: None,
            shows: None,
            program: None,
        }
    }

    /// For tests: a `ui_act` on `element` (as the outline names it, "in" its window)
    /// that went through, read back as `read_back`.
    pub fn act_read_back(read_back: crate::tool::ReadBack) -> Self {
        Self {
            tool: "ui_act".into(),
            line: format!("✓ ui_act {}", read_back.element),
            ran: true,
            held: false,
            ok: true,
            changes: true,
            output: format!("Did: {}", read_back.action),
            effects: vec![],
            read_back: Some(read_back),
            shows: None,
            program: None,
        }
    }
}

/// A call runs a program written for the task: `run_code`, or a shell command that runs
/// Python (read off the command's syntax tree).
pub fn runs_program(tool: &str, arguments: &serde_json::Value) -> bool {
    program_of(tool, arguments).is_some()
}

/// What a call that runs a program written for the task runs (`runs_program`): the
/// code given to `run_code`, the shell command that runs Python.
pub fn program_of(tool: &str, arguments: &serde_json::Value) -> Option<String> {
    let field = |name: &str| arguments.get(name).and_then(serde_json::Value::as_str);
    match tool {
        "run_code" => Some(field("code").unwrap_or_default().to_string()),
        "shell" => field("command")
            .filter(|command| {
                crate::policy::shell::programs(command).0.iter().any(|p| {
                    p.rsplit('/')
                        .next()
                        .is_some_and(|n| n.starts_with("python"))
                })
            })
            .map(str::to_string),
        _ => None,
    }
}

/// Everything the task's calls did.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    pub calls: Vec<CallEvidence>,
}

impl Evidence {
    pub fn push(&mut self, call: CallEvidence) {
        self.calls.push(call);
    }

    /// Calls that ran.
    pub fn ran(&self) -> impl Iterator<Item = &CallEvidence> {
        self.calls.iter().filter(|c| c.ran)
    }

    pub fn effects(&self) -> impl Iterator<Item = &Effect> {
        self.calls.iter().flat_map(|c| c.effects.iter())
    }

    /// A call that changes things ran and worked.
    pub fn changed_ok(&self) -> bool {
        self.ran().any(|c| c.changes && c.ok)
    }

    /// The effects at `path` or inside it.
    pub fn effects_at<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a Effect> + 'a {
        self.effects()
            .filter(move |e| e.touches().iter().any(|p| p.starts_with(path)))
    }

    /// The read-back of the last act in a window that went through, among `calls`.
    pub fn last_act_of(calls: &[CallEvidence]) -> Option<&crate::tool::ReadBack> {
        calls
            .iter()
            .rev()
            .filter(|c| c.ran && c.ok)
            .find_map(|c| c.read_back.as_ref())
    }

    /// The read-back of the task's last act in a window that went through.
    pub fn last_act(&self) -> Option<&crate::tool::ReadBack> {
        Self::last_act_of(&self.calls)
    }

    /// What the calls that ran printed, their shell framing left out; for a call that
    /// read a window, what the window shows.
    pub fn printed(&self) -> Vec<String> {
        self.ran().map(CallEvidence::printed).collect()
    }

    /// The same, less what a call printed of its own line: `echo '…'` prints the model's
    /// own words, which bear nothing out (seen: a worked example's answer echoed, then
    /// given as the answer, "grounded" by the echo).
    pub fn printed_not_echoed(&self) -> Vec<String> {
        self.ran()
            .filter_map(|c| {
                let printed = c.printed();
                let mut lines = printed.lines().map(str::trim).filter(|l| !l.is_empty());
                let echoed = lines.clone().next().is_some() && lines.all(|l| c.line.contains(l));
                (!echoed).then_some(printed)
            })
            .collect()
    }
}

/// A call's output without the lines Zeta wrote around it: the shell tool's framing
/// (`exit code 0`, `stdout:`), its hints in parentheses, and Zeta's `[Zeta]` notes.
pub fn printed_text(output: &str) -> String {
    output
        .lines()
        .filter(|l| {
            let t = l.trim();
            !(t == "stdout:"
                || t == "stderr:"
                || t.starts_with("exit code ")
                || t.starts_with("(no output")
                || t.starts_with("(next:")
                || t.starts_with("[Zeta]"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Keeps `output` within what evidence holds.
pub fn kept(output: &str) -> String {
    crate::text::clip(output, OUTPUT_KEPT)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stat {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
    mode: u32,
    dir: bool,
}

fn stat(path: &Path) -> Option<Stat> {
    let m = std::fs::symlink_metadata(path).ok()?;
    Some(Stat {
        dev: m.dev(),
        ino: m.ino(),
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        mode: m.mode(),
        dir: m.is_dir(),
    })
}

/// A look at some folders: each folder's own entry and its entries'.
#[derive(Debug, Default)]
struct Look(BTreeMap<PathBuf, Stat>);

impl Look {
    fn take(folders: &[PathBuf]) -> Self {
        let mut look = Look::default();
        for folder in folders {
            look.add(folder);
        }
        look
    }

    fn add(&mut self, folder: &Path) {
        if let Some(s) = stat(folder) {
            self.0.insert(folder.to_path_buf(), s);
        }
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        for entry in entries.flatten().take(ENTRIES_PER_FOLDER) {
            let path = entry.path();
            if let Some(s) = stat(&path) {
                self.0.insert(path, s);
            }
        }
    }
}

/// Files a call names are hashed before and after it, up to this size: a rewrite that
/// left the bytes as they were (`sed -i` that matched nothing) changed nothing.
const HASHED_AT_MOST: u64 = 1024 * 1024;

/// A file's bytes, hashed (FNV-1a), when it is small enough.
fn content_hash(path: &Path) -> Option<u64> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > HASHED_AT_MOST {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    Some(bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    }))
}

/// A look before a call, to compare with one after it.
#[derive(Debug)]
pub struct Watch {
    folders: Vec<PathBuf>,
    before: Look,
    /// The files the call names, with their content's hash before it.
    hashed: Vec<(PathBuf, u64)>,
    /// What Zeta itself writes while a call runs (its database, journal, logs, kept
    /// originals, in its own folder): no effect of the call.
    own: Vec<PathBuf>,
}

impl Watch {
    /// Looks at the folders `arguments` and `request_paths` could touch, before a call.
    pub fn before(
        arguments: &serde_json::Value,
        request_paths: &[PathBuf],
        env: &ShellEnv,
    ) -> Self {
        let (folders, named) = folders_for(arguments, request_paths, env);
        let before = Look::take(&folders);
        let hashed = named
            .into_iter()
            .filter_map(|p| content_hash(&p).map(|h| (p, h)))
            .collect();
        Self {
            folders,
            before,
            hashed,
            own: Vec::new(),
        }
    }

    /// Leaves out what Zeta itself writes in its home `folder` while the call runs
    /// (`zeta_protocol::home::WRITTEN_WHILE_RUNNING`: a task's call shows no `changed
    /// zeta.db-wal`). The person's files there, when the home is also their folder, stay.
    pub fn leaving_out(mut self, folder: &Path) -> Self {
        self.own = zeta_protocol::home::WRITTEN_WHILE_RUNNING
            .iter()
            .map(|entry| folder.join(entry))
            .collect();
        self
    }

    /// What changed in the watched folders since `before`.
    pub fn after(self) -> Vec<Effect> {
        let mut after = Look::take(&self.folders);
        // Folders that appeared: what went into them.
        let new_folders: Vec<PathBuf> = after
            .0
            .iter()
            .filter(|(p, s)| s.dir && !self.before.0.contains_key(*p))
            .map(|(p, _)| p.clone())
            .collect();
        for folder in new_folders.iter().take(FOLDERS_PER_CALL) {
            after.add(folder);
        }
        let mut effects = diff(&self.before, &after);
        // Rewritten with the same bytes and mode: not a change.
        effects.retain(|e| match e {
            Effect::Changed(path) => {
                let same_mode =
                    self.before.0.get(path).map(|s| s.mode) == after.0.get(path).map(|s| s.mode);
                let same_bytes = self
                    .hashed
                    .iter()
                    .find(|(p, _)| p == path)
                    .is_some_and(|(p, h)| content_hash(p) == Some(*h));
                !(same_mode && same_bytes)
            }
            _ => true,
        });
        effects.retain(|e| {
            !e.touches()
                .iter()
                .any(|p| self.own.iter().any(|own| p.starts_with(own)))
        });
        effects
    }
}

fn diff(before: &Look, after: &Look) -> Vec<Effect> {
    let mut created: Vec<(&PathBuf, &Stat)> = Vec::new();
    let mut deleted: Vec<(&PathBuf, &Stat)> = Vec::new();
    let mut effects = Vec::new();
    for (path, old) in &before.0 {
        match after.0.get(path) {
            None => deleted.push((path, old)),
            Some(new) if new.ino != old.ino || new.dev != old.dev => {
                // Replaced by another file (an editor's save, `sed -i`): changed.
                effects.push(Effect::Changed(path.clone()));
            }
            Some(new) if !old.dir && (new.len != old.len || new.mtime_ns != old.mtime_ns) => {
                effects.push(Effect::Changed(path.clone()))
            }
            Some(new) if new.mode != old.mode => effects.push(Effect::Changed(path.clone())),
            Some(_) => {}
        }
    }
    for (path, new) in &after.0 {
        if !before.0.contains_key(path) {
            created.push((path, new));
        }
    }
    for (from, old) in &deleted {
        let moved_to = created
            .iter()
            .position(|(_, new)| new.ino == old.ino && new.dev == old.dev);
        match moved_to {
            Some(i) => {
                let (to, _) = created.remove(i);
                effects.push(Effect::Moved {
                    from: (*from).clone(),
                    to: to.clone(),
                });
            }
            None => effects.push(Effect::Deleted((*from).clone())),
        }
    }
    effects.extend(created.into_iter().map(|(p, _)| Effect::Created(p.clone())));
    effects
}

/// The folders a call with `arguments` could touch: the home, the working folder, the
/// folders of the paths its strings name (and those paths, where they are folders), and
/// those of the request's paths.
/// And the paths its arguments name.
fn folders_for(
    arguments: &serde_json::Value,
    request_paths: &[PathBuf],
    env: &ShellEnv,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut folders = vec![env.home.clone(), env.cwd.clone()];
    let mut strings = Vec::new();
    collect_strings(arguments, &mut strings);
    let mut named: Vec<PathBuf> = Vec::new();
    for s in &strings {
        for word in s.split(|c: char| c.is_whitespace() || ";|&<>()'\"=`,".contains(c)) {
            if let Some(path) = path_of(word, env) {
                named.push(path);
            }
        }
    }
    named.sort();
    named.dedup();
    let paths: Vec<PathBuf> = request_paths.iter().chain(&named).cloned().collect();
    for path in paths {
        if path.is_dir() {
            folders.push(path.clone());
        }
        // The nearest existing folder above it (a path whose parents are made by the
        // call shows in the first one that existed).
        let mut parent = path.parent();
        while let Some(p) = parent {
            if p.is_dir() {
                folders.push(p.to_path_buf());
                break;
            }
            parent = p.parent();
        }
    }
    folders.sort();
    folders.dedup();
    // The root and the system's own folders are not watched whole.
    folders.retain(|f| f.components().count() > 2 || f.starts_with(&env.home));
    folders.truncate(FOLDERS_PER_CALL);
    (folders, named)
}

fn collect_strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// A shell word read as a path: one with a slash, a `~`, `$HOME`, or the name of an entry
/// of the working folder; cut at its first wildcard.
fn path_of(word: &str, env: &ShellEnv) -> Option<PathBuf> {
    let word = word.trim_matches(|c: char| c == '{' || c == '}');
    let cut = match word.find(['*', '?', '[']) {
        Some(i) => word[..i].rsplit_once('/').map(|(dir, _)| dir)?,
        None => word,
    };
    if cut.is_empty() || cut.starts_with('-') || cut.contains("://") {
        return None;
    }
    let pathlike = cut.contains('/')
        || cut.starts_with('~')
        || cut.starts_with("$HOME")
        || env.cwd.join(cut).exists();
    pathlike.then(|| crate::assist::request::resolve(cut, env))
}

#[cfg(test)]
mod tests;
