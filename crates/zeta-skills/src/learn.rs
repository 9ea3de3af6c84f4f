//! A skill drafted from a task that worked: the request generalised and the steps that
//! ran and worked, with the task's concrete values — the paths it named, its numbers,
//! dates and quoted texts, the endings its commands picked files by — turned into
//! parameters (DIR, FILE, N, DATE, TEXT, EXT…) wherever they appear. The skill lists
//! them ("Parameters …"), which makes it a template: offered to a small model only for a
//! request of its shape (`shape`, `choose`).
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
/// Entries of a named folder looked at for the endings of its files.
const MOST_LOOKED: usize = 500;

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
    /// Forms replaced wherever they stand: a path as written and where it points, a
    /// number, a quoted text.
    forms: Vec<String>,
    /// Forms replaced in the request's own words only: a place's bare word ("my notes
    /// folder"), an ending written as a word ("the txt files").
    said: Vec<String>,
    /// Endings replaced in the steps only where a glob picks files by them (`*.txt`).
    globs: Vec<String>,
    /// Endings the request wrote with their dot, replaced in the steps wherever they
    /// end a word (`.md` in `file.endswith('.md')`).
    dotted: Vec<String>,
    name: String,
    meaning: &'static str,
}

impl Param {
    fn new(forms: Vec<String>, kind: &str, meaning: &'static str) -> Self {
        Self {
            forms,
            said: Vec::new(),
            globs: Vec::new(),
            dotted: Vec::new(),
            name: kind.to_string(),
            meaning,
        }
    }
}

/// What a text to generalise is: the request (or a skill's description), or a step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    Request,
    Step,
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
    let parsed = Request::parse(request, env);
    let mut params = parameters(&parsed, &env.home);
    for text in texts_run(&parsed, &steps, env) {
        push(
            Param::new(vec![text], "TEXT", "a text the request gives"),
            &mut params,
        );
    }
    let mut endings = endings_run(&parsed, &steps, env);
    for dotted in endings_dotted(&parsed) {
        match endings
            .iter_mut()
            .find(|e| e.said.eq_ignore_ascii_case(&dotted.said))
        {
            Some(e) => e.dotted = true,
            None => endings.push(dotted),
        }
    }
    add_endings(&mut params, &endings);
    let steps: Vec<String> = steps.into_iter().take(MOST_STEPS).collect();
    // A value inside a longer one (a number in a text) leaves nothing to stand for.
    let general = |params: &[Param]| {
        let description = generalise(request.trim(), params, Text::Request);
        let steps: Vec<String> = steps
            .iter()
            .map(|s| generalise(s, params, Text::Step))
            .collect();
        (description, steps)
    };
    number(&mut params);
    let (description, _) = general(&params);
    let used: Vec<bool> = params
        .iter()
        .map(|p| replace_value(&description, &p.name, "\u{0}") != description)
        .collect();
    let mut used = used.into_iter();
    params.retain(|_| used.next().unwrap_or(true));
    for p in &mut params {
        p.name = p
            .name
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string();
    }
    number(&mut params);
    let (description, steps) = general(&params);
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

/// A request as a learned skill's description reads (`draft`): the paths it names, its
/// quoted texts, its numbers and the kinds of file it names by their ending (`.csv`, or
/// a word that is the ending of files in a folder it names) stand as parameters, so that
/// "How many .jpg files are in ~/Pictures?" reads "How many .EXT files are in DIR?".
/// What a template skill (`Skill::parameters`) is compared with: a request of its shape.
/// `home`: the home `~` stands for.
pub fn shape(request: &Request, home: &Path) -> String {
    let mut params = parameters(request, home);
    add_endings(&mut params, &endings_named(request));
    number(&mut params);
    generalise(request.text.trim(), &params, Text::Request)
}

/// `text` with each form of each parameter's value replaced by its name, the longest
/// form first (`~/docs/old` before `~/docs`, a date before a number in it).
fn generalise(text: &str, params: &[Param], what: Text) -> String {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for p in params {
        pairs.extend(p.forms.iter().map(|f| (f.clone(), p.name.clone())));
        match what {
            Text::Request => pairs.extend(p.said.iter().map(|f| (f.clone(), p.name.clone()))),
            Text::Step => {
                pairs.extend(
                    p.globs
                        .iter()
                        .map(|g| (format!("*.{g}"), format!("*.{}", p.name))),
                );
                pairs.extend(
                    p.dotted
                        .iter()
                        .map(|d| (format!(".{d}"), format!(".{}", p.name))),
                );
            }
        }
    }
    pairs.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    pairs.iter().fold(text.to_string(), |out, (from, to)| {
        replace_value(&out, from, to)
    })
}

/// The request's concrete values as parameters: paths and the places it names by a bare
/// word (DIR or FILE by what they are), quoted texts (TEXT), numbers (N), dates, times
/// and other values written with digits (DATE, TIME, VALUE).
fn parameters(parsed: &Request, home: &Path) -> Vec<Param> {
    let mut params: Vec<Param> = Vec::new();
    for named in parsed.paths.iter().chain(&parsed.places) {
        // A path not there yet is a folder when it has no ending (one the task makes).
        let folder = named.path.is_dir()
            || named.text.ends_with('/')
            || !named.path.exists() && named.path.extension().is_none();
        let (kind, meaning) = if folder {
            ("DIR", "a folder")
        } else {
            ("FILE", "a file")
        };
        let mut forms = vec![named.path.display().to_string()];
        if let Ok(rel) = named.path.strip_prefix(home) {
            forms.push(format!("~/{}", rel.display()));
            forms.push(format!("$HOME/{}", rel.display()));
        }
        // A bare word ("notes" in "my notes folder") stands for the place in the
        // request's words only: in a step it may be part of anything.
        let bare = !named.text.contains(['/', '.', '~', '$']);
        let mut said = Vec::new();
        if bare {
            said.push(named.text.clone());
        } else {
            forms.push(named.text.clone());
        }
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        forms.dedup();
        let mut param = Param::new(forms, kind, meaning);
        param.said = said;
        push(param, &mut params);
    }
    for quoted in quoted(&parsed.text) {
        push(
            Param::new(vec![quoted], "TEXT", "a text the request gives"),
            &mut params,
        );
    }
    for value in values(&parsed.text) {
        let (kind, meaning) = match &value {
            Value::Number(..) => ("N", "a number the request gives"),
            Value::Literal(w) if is_date(w) => ("DATE", "a date the request gives"),
            Value::Literal(w) if w.contains(':') => ("TIME", "a time the request gives"),
            Value::Literal(_) => ("VALUE", "a value the request gives"),
        };
        push(
            Param::new(vec![value.as_written().to_string()], kind, meaning),
            &mut params,
        );
    }
    params
}

/// Adds a parameter unless it has no form or one of its forms is already another's.
fn push(mut param: Param, params: &mut Vec<Param>) {
    param.forms.retain(|f| !f.is_empty());
    param.said.retain(|f| !f.is_empty());
    let all = |p: &Param| p.forms.iter().chain(&p.said).cloned().collect::<Vec<_>>();
    let mine = all(&param);
    if mine.is_empty()
        || params
            .iter()
            .any(|p| all(p).iter().any(|f| mine.contains(f)))
    {
        return;
    }
    params.push(param);
}

/// A date as written: three groups of digits joined by one separator, one of four digits
/// (`2026-12-25`, `25/12/2026`).
fn is_date(written: &str) -> bool {
    ['-', '/', '.'].iter().any(|&sep| {
        let parts: Vec<&str> = written.split(sep).collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.len() <= 4 && p.chars().all(|c| c.is_ascii_digit()))
            && (parts[0].len() == 4 || parts[2].len() == 4)
    })
}

/// Endings of files as parameters (EXT): each as the request wrote it, and as the
/// commands' globs did (`PDF` asked, `*.pdf` run).
fn add_endings(params: &mut Vec<Param>, endings: &[Ending]) {
    for ending in endings {
        let mut param = Param::new(
            Vec::new(),
            "EXT",
            "a kind of file, by its ending (without the dot)",
        );
        param.said = vec![ending.said.clone()];
        param.globs = ending.globbed.clone();
        if ending.dotted {
            param.dotted = vec![ending.said.clone()];
        }
        push(param, params);
    }
}

/// An ending of files: as the request wrote it, and as the commands' globs wrote it.
struct Ending {
    said: String,
    globbed: Vec<String>,
    /// The request wrote it with its dot (`.md`).
    dotted: bool,
}

/// Several of a kind are numbered: FILE1, FILE2…
fn number(params: &mut [Param]) {
    for kind in ["DIR", "FILE", "TEXT", "N", "DATE", "TIME", "VALUE", "EXT"] {
        if params.iter().filter(|p| p.name == kind).count() > 1 {
            for (i, p) in params.iter_mut().filter(|p| p.name == kind).enumerate() {
                p.name = format!("{kind}{}", i + 1);
            }
        }
    }
}

/// An ending of files a glob selects (`*.txt`, `~/docs/*.txt`, `--include=*.txt`),
/// without its dot.
fn glob_ending(word: &str) -> Option<&str> {
    let last = word.rsplit(['/', '=']).next().unwrap_or(word);
    ending(last.strip_prefix('*')?)
}

/// The ending in `.ext` (letters and digits, up to 8), without its dot.
fn ending(dotted: &str) -> Option<&str> {
    let ext = dotted.strip_prefix('.')?;
    (!ext.is_empty() && ext.len() <= 8 && ext.chars().all(|c| c.is_ascii_alphanumeric()))
        .then_some(ext)
}

/// Whether `word` is one of the words of a path the request names.
fn in_a_path(request: &Request, word: &str) -> bool {
    request
        .paths
        .iter()
        .chain(&request.places)
        .any(|p| words(&p.text).any(|w| w == word))
}

/// The request's words, cut at anything not a letter or digit.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Endings the task's commands selected files by (`find DIR -name '*.txt'`) that the
/// request names too, apart from its paths ("the txt files", ".txt").
fn endings_run(request: &Request, steps: &[String], env: &ShellEnv) -> Vec<Ending> {
    let mut found: Vec<Ending> = Vec::new();
    for step in steps {
        for command in zeta_core::policy::shell::commands(step, env) {
            for word in command.words.iter().skip(1) {
                let Some(ext) = glob_ending(word) else {
                    continue;
                };
                let Some(said) = words(&request.text)
                    .find(|w| w.eq_ignore_ascii_case(ext) && !in_a_path(request, w))
                else {
                    continue;
                };
                match found.iter_mut().find(|f| f.said == said) {
                    Some(f) if !f.globbed.iter().any(|g| g == ext) => {
                        f.globbed.push(ext.to_string())
                    }
                    Some(_) => {}
                    None => found.push(Ending {
                        said: said.to_string(),
                        globbed: vec![ext.to_string()],
                        dotted: false,
                    }),
                }
            }
        }
    }
    found
}

/// Endings a request names: written with their dot (`.csv`, `*.log`) apart from a path
/// (`endings_dotted`), or a word that is the ending of two or more files in a folder the
/// request names ("the jpg files in ~/Pictures").
fn endings_named(request: &Request) -> Vec<Ending> {
    let mut found = endings_dotted(request);
    let mut held: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for folder in request
        .paths
        .iter()
        .chain(&request.places)
        .map(|p| p.path.as_path())
        .filter(|p| p.is_dir())
    {
        if let Ok(entries) = std::fs::read_dir(folder) {
            for entry in entries.flatten().take(MOST_LOOKED) {
                if let Some(ext) = entry.path().extension().and_then(|e| e.to_str()) {
                    *held.entry(ext.to_lowercase()).or_default() += 1;
                }
            }
        }
    }
    for word in words(&request.text) {
        let files = held.get(&word.to_lowercase()).copied().unwrap_or(0);
        if word.len() >= 2
            && files >= 2
            && !in_a_path(request, word)
            && !found.iter().any(|f| f.said == word)
        {
            found.push(Ending {
                said: word.to_string(),
                globbed: Vec::new(),
                dotted: false,
            });
        }
    }
    found
}

/// Endings the request writes with their dot (`.csv`, `*.log`), apart from its paths.
fn endings_dotted(request: &Request) -> Vec<Ending> {
    let named: Vec<&str> = request
        .paths
        .iter()
        .chain(&request.places)
        .map(|p| p.text.as_str())
        .collect();
    let mut found: Vec<Ending> = Vec::new();
    for token in request.text.split_whitespace() {
        let token = token.trim_matches(|c: char| !(c.is_alphanumeric() || "./*~$".contains(c)));
        let token = token.trim_end_matches('.');
        if named.contains(&token) {
            continue;
        }
        if let Some(ext) = ending(token.strip_prefix('*').unwrap_or(token)) {
            if !found.iter().any(|f| f.said == ext) {
                found.push(Ending {
                    said: ext.to_string(),
                    globbed: Vec::new(),
                    dotted: true,
                });
            }
        }
    }
    found
}

/// Texts the task's commands were given as the request wrote them (`grep -c ERROR`,
/// `echo 'Fix the roof' > …`, `sed 's/planet/cloud/'`): an argument, or a part of one
/// between slashes, of three characters or more with a letter, that the request holds
/// as a whole word or phrase and that is not a flag, a glob or a word of a path it names.
fn texts_run(request: &Request, steps: &[String], env: &ShellEnv) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for step in steps {
        for command in zeta_core::policy::shell::commands(step, env) {
            for word in command.words.iter().skip(1) {
                let mut candidates = vec![word.as_str()];
                if !word.starts_with(['/', '~', '.', '$']) && word.contains('/') {
                    candidates.extend(word.split('/'));
                }
                for c in candidates {
                    let c = c.trim();
                    let fits = c.chars().count() >= 3
                        && c.chars().any(char::is_alphabetic)
                        && !c.starts_with('-')
                        && !c.contains(['*', '?', '[', '/', '$', '\n'])
                        && !in_a_path(request, c)
                        && replace_value(&request.text, c, "\u{0}") != request.text;
                    if fits && !found.iter().any(|f| f == c) {
                        found.push(c.to_string());
                    }
                }
            }
        }
    }
    found
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
        // `2` in `2.5`, `1.2`, `2026-12-25` or `10:30`: part of a longer value.
        Some('.' | ',' | '-' | ':' | '/') => numeric && beyond.is_some_and(|b| b.is_ascii_digit()),
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
