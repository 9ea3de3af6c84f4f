//! The walk over a command line's syntax tree: every simple command in every construct,
//! its words expanded where that is static, the working folder and variables followed in
//! order, and each command handed to the rules.

use std::collections::HashMap;
use std::path::PathBuf;

use tree_sitter::{Node, Parser};

use crate::findings::Findings;
use crate::rules;
use crate::seen::Seen;
use crate::words::{decode_ansi_c, expand_braces, expand_tilde, normalize, Word};
use crate::{ShellEnv, Verdict};

/// Nested scripts (`sh -c`, `eval`, here-documents fed to a shell) re-parsed at most this
/// deep; deeper is judged unknowable.
const MAX_DEPTH: usize = 6;

/// What feeds a command's standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stdin {
    /// The terminal, nothing, or a file.
    None,
    /// Text known before it runs (a here-document, `echo` of literal words).
    Text(String),
    /// The output of a download.
    Download,
    /// Text decoded or generated when it runs (`base64 -d`, `xxd -r`, `printf '\x..'`).
    Decoded,
    /// Another command's output.
    Unknown,
}

pub struct Walker<'e> {
    pub env: &'e ShellEnv,
    vars: HashMap<String, Word>,
    /// The working folder, while it is known.
    pub cwd: Option<PathBuf>,
    depth: usize,
    /// Inside a `while`/`until`/`for` body.
    pub loops: usize,
    /// Names of the functions whose bodies are being walked.
    pub functions: Vec<String>,
    /// Files a download wrote earlier in the line.
    pub downloaded: Vec<PathBuf>,
    /// Downloaders seen so far (to tell a substitution that fetches).
    pub downloads_seen: usize,
    /// In a pipeline stage that is not the last, or backgrounded.
    pub piped_or_background: bool,
    /// What the walk collects besides the verdict (`seen`).
    pub seen: Seen,
    /// The verdict so far (`findings`).
    pub findings: Findings,
    /// Walking text that may not be shell at all (a string in a Python program): what it
    /// is found to do counts, a parse error does not.
    pub lenient: usize,
    /// The substitutions of the script being walked, by their node's byte range: an
    /// argument of a substitution is expanded for its value and then walked as a command,
    /// and without this every level of `$($($(…)))` would double the work. Each nested
    /// script has its own.
    substituted: HashMap<(usize, usize), Word>,
    /// The last simple command walked, for `Seen::pipes`.
    last_command: Option<Walked>,
    /// The redirected statement about to be walked reads a file as its input (`<`).
    input_redirected: bool,
}

impl<'e> Walker<'e> {
    pub fn new(env: &'e ShellEnv) -> Self {
        let mut vars = HashMap::new();
        let home = env.home.display().to_string();
        vars.insert("HOME".to_string(), Word::literal(&home));
        vars.insert("USER".to_string(), Word::literal(&env.user));
        vars.insert("LOGNAME".to_string(), Word::literal(&env.user));
        vars.insert(
            "PWD".to_string(),
            Word::literal(&env.cwd.display().to_string()),
        );
        Self {
            env,
            vars,
            cwd: Some(env.cwd.clone()),
            depth: 0,
            loops: 0,
            functions: Vec::new(),
            downloaded: Vec::new(),
            downloads_seen: 0,
            piped_or_background: false,
            seen: Seen::default(),
            findings: Findings::default(),
            lenient: 0,
            substituted: HashMap::new(),
            last_command: None,
            input_redirected: false,
        }
    }

    /// Adds a verdict to the line's.
    pub fn find(&mut self, verdict: Verdict) {
        self.findings.add(verdict);
    }

    /// Only a person may approve the line, by rule `rule`.
    pub fn ask(&mut self, rule: &'static str, why: impl Into<String>) {
        self.find(crate::rules::ask(rule, why));
    }

    /// Parses and walks `text`, returning the verdict for everything seen so far.
    pub fn script(&mut self, text: &str) -> Verdict {
        self.nested(text, &[]);
        self.findings.verdict()
    }

    /// Walks a nested script (`sh -c TEXT _ ARGS…`), with `$0…$n` set from `positional`.
    pub fn nested(&mut self, text: &str, positional: &[Word]) {
        if self.depth >= MAX_DEPTH {
            self.ask(
                "nested-too-deep",
                "the command nests shells too deeply to check",
            );
            return;
        }
        let mut parser = Parser::new();
        if parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .is_err()
        {
            self.ask("grammar-missing", "the shell grammar could not be loaded");
            return;
        }
        let Some(tree) = parser.parse(text, None) else {
            self.ask("parse-failed", "the command could not be parsed");
            return;
        };
        let saved: Vec<(String, Option<Word>)> = (0..positional.len())
            .map(|i| {
                let name = i.to_string();
                let old = self.vars.insert(name.clone(), positional[i].clone());
                (name, old)
            })
            .collect();
        self.depth += 1;
        let outer = std::mem::take(&mut self.substituted);
        let root = tree.root_node();
        self.node(root, text);
        self.substituted = outer;
        self.depth -= 1;
        for (name, old) in saved {
            match old {
                Some(w) => self.vars.insert(name, w),
                None => self.vars.remove(&name),
            };
        }
        self.seen.partial |= root.has_error();
        if root.has_error() && self.lenient == 0 {
            self.ask("parse-partial", "part of the command could not be parsed");
        }
    }

    fn node(&mut self, n: Node, src: &str) {
        match n.kind() {
            "command" => {
                self.command(n, src, Stdin::None);
            }
            "pipeline" => self.pipeline(&named(n), src, Stdin::None),
            "redirected_statement" => self.redirected(n, src),
            "variable_assignment" => self.assign(n, src),
            "for_statement" => self.for_loop(n, src),
            "while_statement" | "until_statement" | "c_style_for_statement" => {
                self.loops += 1;
                self.children(n, src);
                self.loops -= 1;
            }
            "function_definition" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|w| text(w, src).to_string())
                    .unwrap_or_default();
                self.functions.push(name);
                if let Some(body) = n.child_by_field_name("body") {
                    self.node(body, src);
                }
                self.functions.pop();
            }
            "comment" | "heredoc_body" | "heredoc_start" | "heredoc_end" => {}
            _ => self.children(n, src),
        }
    }

    /// Walks the named children; one followed by `&` runs in the background.
    fn children(&mut self, n: Node, src: &str) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.children(&mut cursor).collect();
        for (i, kid) in kids.iter().enumerate() {
            if !kid.is_named() {
                continue;
            }
            let background = kids.get(i + 1).is_some_and(|k| text(*k, src) == "&");
            let was = self.piped_or_background;
            self.piped_or_background |= background;
            self.node(*kid, src);
            self.piped_or_background = was;
        }
    }

    fn pipeline(&mut self, stages: &[Node], src: &str, first_stdin: Stdin) {
        let mut stdin = first_stdin;
        let last = stages.len().saturating_sub(1);
        let mut before: Option<Walked> = None;
        for (i, stage) in stages.iter().enumerate() {
            let was = self.piped_or_background;
            self.piped_or_background |= i < last || stages.len() > 1;
            self.last_command = None;
            let out = match stage.kind() {
                "command" => self.command(*stage, src, stdin.clone()),
                "redirected_statement" => {
                    self.redirected(*stage, src);
                    Stdin::Unknown
                }
                _ => {
                    self.node(*stage, src);
                    Stdin::Unknown
                }
            };
            let this = matches!(stage.kind(), "command" | "redirected_statement")
                .then(|| self.last_command.take())
                .flatten();
            if let (Some(from), Some(reader)) = (&before, &this) {
                if let Some((into, into_args)) = reader.expanded.split_first() {
                    self.seen.pipes.push(crate::seen::Pipe {
                        from: from.expanded.clone(),
                        written: from.written.clone(),
                        span: from.span,
                        into: into.clone(),
                        into_args: into_args.to_vec(),
                        into_span: reader.span,
                        cwd: self.cwd.clone(),
                    });
                }
            }
            before = this;
            self.piped_or_background = was;
            stdin = out;
        }
    }

    /// A statement with redirections: here-documents and here-strings feed its command;
    /// a here-document's line may continue as a pipeline; file targets are judged.
    fn redirected(&mut self, n: Node, src: &str) {
        let mut stdin = Stdin::None;
        let mut continuation = Vec::new();
        let mut cursor = n.walk();
        for redirect in n.children_by_field_name("redirect", &mut cursor) {
            if redirect.kind() == "heredoc_redirect" {
                let mut body = String::new();
                for part in named(redirect) {
                    match part.kind() {
                        "heredoc_body" => body.push_str(text(part, src)),
                        "heredoc_start" | "heredoc_end" => {}
                        _ => continuation.push(part),
                    }
                }
                stdin = Stdin::Text(body);
            }
        }
        let body = n.child_by_field_name("body");
        let mut cursor = n.walk();
        self.input_redirected = n
            .children_by_field_name("redirect", &mut cursor)
            .any(|r| is_input(r, src));
        let out = match body {
            Some(b) if b.kind() == "command" => self.command(b, src, stdin),
            Some(b) => {
                self.node(b, src);
                Stdin::Unknown
            }
            None => Stdin::Unknown,
        };
        // The body's words for a pipe it feeds, unless its output goes to a file.
        let body_words = self
            .last_command
            .take()
            .filter(|_| body.is_some_and(|b| b.kind() == "command"));
        let mut cursor = n.walk();
        let output_elsewhere = n
            .children_by_field_name("redirect", &mut cursor)
            .filter(|r| r.kind() == "file_redirect")
            .map(|r| text(r, src).trim_start())
            .any(|r| r.contains('>') && !r.starts_with("2>") && !r.starts_with('<'));
        let downloader = body
            .filter(|b| b.kind() == "command")
            .and_then(|b| b.child_by_field_name("name"))
            .map(|name| rules::base(text(name, src)))
            .is_some_and(|p| crate::catalogue::DOWNLOADERS.contains(&p.as_str()));
        let mut cursor = n.walk();
        for redirect in n.children_by_field_name("redirect", &mut cursor) {
            self.file_redirect(redirect, src, downloader);
        }
        for part in continuation {
            match part.kind() {
                "pipeline" => self.pipeline(&named(part), src, out.clone()),
                "command" => {
                    self.command(part, src, out.clone());
                }
                _ => self.node(part, src),
            }
        }
        self.last_command = body_words.filter(|_| !output_elsewhere);
    }

    fn file_redirect(&mut self, redirect: Node, src: &str, downloader: bool) {
        if redirect.kind() != "file_redirect" {
            return;
        }
        let op: String = {
            let mut cursor = redirect.walk();
            let ops: Vec<String> = redirect
                .children(&mut cursor)
                .filter(|k| !k.is_named())
                .map(|k| text(k, src).to_string())
                .collect();
            ops.join("")
        };
        let Some(dest) = redirect.child_by_field_name("destination") else {
            return;
        };
        let target = self.word(dest, src);
        // bash's /dev/tcp and /dev/udp are the network, in either direction: reading
        // from one is a connection (its address and port can carry data out).
        let network = |v: &str| {
            let v = v.trim_start_matches(['"', '\'']);
            v.starts_with("/dev/tcp/") || v.starts_with("/dev/udp/")
        };
        let values = target.values.clone().unwrap_or_default();
        if network(&target.text) || values.iter().any(|v| network(v)) {
            self.seen.writes = true;
            self.ask(
                "dev-tcp",
                format!(
                    "it opens a network connection through the shell's {} (data can leave \
                 this way, in the address and port too)",
                    target.text
                ),
            );
        }
        if op.contains('>') && !op.contains('&') || op == "&>" || op == "&>>" {
            self.seen.writes |= target.single() != Some("/dev/null");
            self.note_writes(&target);
            if downloader {
                if let (Some(value), Some(cwd)) = (target.single(), self.cwd.clone()) {
                    self.downloaded.push(normalize(value, &cwd));
                }
            }
            let append = op.contains(">>");
            if append {
                if let (Some(values), Some(cwd)) = (&target.values, &self.cwd) {
                    let paths: Vec<PathBuf> = values.iter().map(|v| normalize(v, cwd)).collect();
                    self.seen.append_targets.extend(paths);
                }
            }
            let verdict = rules::write_to(self, &target, append, "redirecting output");
            self.find(verdict);
        }
    }

    /// Notes the known values of `target` as paths written.
    pub fn note_writes(&mut self, target: &Word) {
        if let (Some(values), Some(cwd)) = (&target.values, &self.cwd) {
            let paths: Vec<PathBuf> = values.iter().map(|v| normalize(v, cwd)).collect();
            self.seen.write_targets.extend(paths);
        }
    }

    fn assign(&mut self, n: Node, src: &str) {
        let Some(name) = n.child_by_field_name("name") else {
            return;
        };
        let value = match n.child_by_field_name("value") {
            Some(v) => self.word(v, src),
            None => Word::literal(""),
        };
        self.vars.insert(text(name, src).to_string(), value);
    }

    fn for_loop(&mut self, n: Node, src: &str) {
        let name = n
            .child_by_field_name("variable")
            .map(|v| text(v, src).to_string())
            .unwrap_or_default();
        let mut values: Option<Vec<String>> = Some(Vec::new());
        let mut cursor = n.walk();
        let mut any = false;
        for v in n.children_by_field_name("value", &mut cursor) {
            any = true;
            for w in self.words(v, src) {
                match (&mut values, w.values) {
                    (Some(all), Some(vs)) => all.extend(vs),
                    _ => values = None,
                }
            }
        }
        let word = match values {
            Some(vs) if any => Word::known(&name, vs),
            _ => Word::unknown(&format!("${name}")),
        };
        self.vars.insert(name, word);
        self.loops += 1;
        if let Some(body) = n.child_by_field_name("body") {
            self.node(body, src);
        }
        self.loops -= 1;
    }

    /// A simple command: its assignments, name and arguments expanded, then judged.
    /// Returns what its output is, for the next pipeline stage.
    fn command(&mut self, n: Node, src: &str, mut stdin: Stdin) -> Stdin {
        let mut input_redirected = std::mem::take(&mut self.input_redirected);
        let mut argv: Vec<Word> = Vec::new();
        let mut cursor = n.walk();
        for kid in n.named_children(&mut cursor) {
            match kid.kind() {
                "variable_assignment" => self.assign(kid, src),
                "command_name" => {
                    for inner in named(kid) {
                        argv.extend(self.words(inner, src));
                    }
                }
                "herestring_redirect" => {
                    let w = named(kid)
                        .first()
                        .map(|v| self.word(*v, src))
                        .unwrap_or_default();
                    stdin = match w.single() {
                        Some(t) => Stdin::Text(t.to_string()),
                        None => Stdin::Decoded,
                    };
                }
                "file_redirect" => {
                    input_redirected |= is_input(kid, src);
                    self.file_redirect(kid, src, false)
                }
                _ => {
                    if n.child_by_field_name("name")
                        .is_some_and(|name| name.id() == kid.id())
                    {
                        continue;
                    }
                    argv.extend(self.words(kid, src));
                }
            }
        }
        if argv.is_empty() {
            return Stdin::Unknown;
        }
        let fed = input_redirected || !matches!(stdin, Stdin::None);
        let out = rules::judge_command(self, &argv, stdin);
        // Kept after the judgement, which may walk commands nested in this one.
        let (expanded, written) = command_words(&argv);
        // Where it is in the line itself: a nested shell's text is another text.
        let span = (self.depth == 1).then(|| (n.start_byte(), n.end_byte()));
        self.seen.commands.push(crate::seen::Simple {
            words: expanded.clone(),
            written: written.clone(),
            span,
            cwd: self.cwd.clone(),
            fed,
        });
        self.last_command = Some(Walked {
            expanded,
            written,
            span,
        });
        out
    }

    /// The words one argument node stands for: an unquoted brace group splits into several.
    pub fn words(&mut self, n: Node, src: &str) -> Vec<Word> {
        let raw = text(n, src);
        let plain = matches!(n.kind(), "word" | "concatenation")
            && named(n).iter().all(|k| k.kind() == "word");
        if plain && raw.contains('{') && raw.contains('}') {
            return expand_braces(raw)
                .into_iter()
                .map(|t| self.plain_word(&t))
                .collect();
        }
        vec![self.word(n, src)]
    }

    fn plain_word(&self, raw: &str) -> Word {
        let unescaped = raw.replace('\\', "");
        if let Some(v) = expand_tilde(&unescaped, &self.env.home) {
            return Word::known(raw, vec![v]);
        }
        // `~user` and `~user/…`: the user's own home, or another user's under /home.
        if let Some(rest) = unescaped.strip_prefix('~') {
            let (user, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            if !user.is_empty()
                && user
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                let home = if user == self.env.user {
                    self.env.home.display().to_string()
                } else {
                    format!("/home/{user}")
                };
                return Word::known(raw, vec![format!("{home}{tail}")]);
            }
        }
        Word::literal(&unescaped)
    }

    /// One argument node, expanded where that is static.
    pub fn word(&mut self, n: Node, src: &str) -> Word {
        let raw = text(n, src);
        match n.kind() {
            "word" | "number" => self.plain_word(raw),
            "raw_string" => Word::literal(raw.trim_start_matches('\'').trim_end_matches('\'')),
            "ansi_c_string" => {
                let body = raw
                    .strip_prefix("$'")
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or(raw);
                Word::literal(&decode_ansi_c(body))
            }
            "string" | "translated_string" => {
                let mut out = Word::literal("");
                let mut had_part = false;
                for part in named(n) {
                    had_part = true;
                    let w = match part.kind() {
                        "string_content" => Word::literal(text(part, src)),
                        _ => self.word(part, src),
                    };
                    out = out.concat(&w);
                }
                if !had_part {
                    let inner = raw.trim_start_matches('$').trim_matches('"');
                    return Word::literal(inner);
                }
                out.text = raw.to_string();
                out
            }
            "concatenation" => {
                let mut out = Word::literal("");
                let mut first = true;
                for part in named(n) {
                    let w = match part.kind() {
                        // `~` only counts at the very start.
                        "word" if first => self.plain_word(text(part, src)),
                        "word" => Word::literal(&text(part, src).replace('\\', "")),
                        _ => self.word(part, src),
                    };
                    out = out.concat(&w);
                    first = false;
                }
                out.text = raw.to_string();
                out
            }
            "simple_expansion" => {
                let name = raw.trim_start_matches('$');
                self.var(name, raw)
            }
            "expansion" => self.expansion(raw),
            "command_substitution" => self.substitution(n, src),
            "process_substitution" => {
                let before = self.downloads_seen;
                self.children(n, src);
                let mut w = Word::unknown(raw);
                w.fetched = self.downloads_seen > before;
                w
            }
            "arithmetic_expansion" => Word::unknown(raw),
            _ => {
                self.children(n, src);
                Word::unknown(raw)
            }
        }
    }

    fn var(&self, name: &str, raw: &str) -> Word {
        match self.vars.get(name) {
            Some(w) => {
                let mut w = w.clone();
                w.text = raw.to_string();
                w
            }
            None => Word::unknown(raw),
        }
    }

    /// `${NAME}`, `${NAME:?…}`, `${NAME:-default}`, `${NAME%/}`…
    fn expansion(&mut self, raw: &str) -> Word {
        let inner = raw
            .strip_prefix("${")
            .and_then(|r| r.strip_suffix('}'))
            .unwrap_or("");
        let end = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let (name, op) = inner.split_at(end);
        if name.is_empty() {
            return Word::unknown(raw);
        }
        let known = self.vars.get(name).cloned();
        let default = |d: &str| Word::literal(d);
        let mut w = match (op, known) {
            ("", Some(w)) => w,
            (op, Some(w)) if op.starts_with(":?") || op.starts_with('?') => w,
            (op, Some(w)) if op.starts_with(":-") || op.starts_with(":=") => w,
            (op, Some(w)) if op.starts_with('-') || op.starts_with('=') => w,
            (op, None) if op.starts_with(":-") || op.starts_with(":=") => {
                let d = &op[2..];
                match expand_tilde(d, &self.env.home) {
                    Some(v) => Word::literal(&v),
                    None if d.starts_with('$') => self.var(d.trim_start_matches('$'), d),
                    None => default(d),
                }
            }
            (op, Some(w)) if op.starts_with('%') || op.starts_with('#') => {
                let pattern = op.trim_start_matches(['%', '#']);
                match (w.values, pattern) {
                    (Some(vs), "/" | "/*") if op.starts_with('%') => Word::known(
                        raw,
                        vs.iter()
                            .map(|v| v.trim_end_matches('/').to_string())
                            .collect(),
                    ),
                    _ => Word::unknown(raw),
                }
            }
            _ => Word::unknown(raw),
        };
        w.text = raw.to_string();
        w
    }

    /// `$(…)` or backquotes: the commands inside are judged; a few print a known value
    /// (`echo`/`printf` of literal words, `pwd`, `realpath`, `whoami`).
    fn substitution(&mut self, n: Node, src: &str) -> Word {
        let raw = text(n, src);
        let key = (n.start_byte(), n.end_byte());
        if let Some(w) = self.substituted.get(&key) {
            return w.clone();
        }
        let before = self.downloads_seen;
        let kids = named(n);
        let single = match kids.as_slice() {
            [one] if one.kind() == "command" => Some(*one),
            _ => None,
        };
        let mut value = None;
        if let Some(cmd) = single {
            let mut argv = Vec::new();
            let mut cursor = cmd.walk();
            for kid in cmd.named_children(&mut cursor) {
                match kid.kind() {
                    "command_name" => {
                        for inner in named(kid) {
                            argv.extend(self.words(inner, src));
                        }
                    }
                    "variable_assignment" | "file_redirect" | "herestring_redirect" => {}
                    _ => argv.extend(self.words(kid, src)),
                }
            }
            let values: Option<Vec<String>> =
                argv.iter().map(|w| w.single().map(String::from)).collect();
            if let Some(values) = values {
                value = match values.first().map(|p| rules::base(p)).as_deref() {
                    Some("echo") => {
                        let words: Vec<String> = values[1..]
                            .iter()
                            .skip_while(|v| {
                                matches!(v.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en")
                            })
                            .cloned()
                            .collect();
                        Some(words.join(" "))
                    }
                    Some("printf") if values.len() == 2 && !values[1].contains(['%', '\\']) => {
                        Some(values[1].clone())
                    }
                    Some("pwd") => self.cwd.as_ref().map(|c| c.display().to_string()),
                    Some("whoami") => Some(self.env.user.clone()),
                    Some("realpath" | "readlink") => values.last().and_then(|p| {
                        self.cwd
                            .as_ref()
                            .map(|c| normalize(p, c).display().to_string())
                    }),
                    _ => None,
                };
            }
        }
        self.children(n, src);
        let mut w = match value {
            Some(v) => Word::known(raw, vec![v]),
            None => Word::unknown(raw),
        };
        w.fetched = self.downloads_seen > before;
        self.substituted.insert(key, w.clone());
        w
    }
}

/// A simple command as a pipe sees it.
struct Walked {
    expanded: Vec<String>,
    written: Vec<String>,
    span: Option<(usize, usize)>,
}

/// A simple command's words, expanded (its program by base name) and as written; a word
/// only known when it runs stays as written.
fn command_words(argv: &[Word]) -> (Vec<String>, Vec<String>) {
    let mut expanded = Vec::new();
    for (i, w) in argv.iter().enumerate() {
        match &w.values {
            Some(values) if i == 0 => expanded.extend(values.first().map(|v| rules::base(v))),
            Some(values) => expanded.extend(values.iter().cloned()),
            None => expanded.push(w.text.clone()),
        }
    }
    let written = argv.iter().map(|w| w.text.clone()).collect();
    (expanded, written)
}

/// A redirection that feeds the command's standard input: `< FILE`, `0< FILE`, `<>
/// FILE`, `<&N`, or a here-string (not `2<`, another descriptor's).
fn is_input(redirect: Node, src: &str) -> bool {
    match redirect.kind() {
        "herestring_redirect" => true,
        "file_redirect" => {
            let mut cursor = redirect.walk();
            let op: String = redirect
                .children(&mut cursor)
                .filter(|k| !k.is_named() || k.kind() == "file_descriptor")
                .map(|k| text(k, src))
                .collect();
            matches!(op.as_str(), "<" | "0<" | "<>" | "0<>" | "<&" | "0<&")
        }
        _ => false,
    }
}

fn named(n: Node) -> Vec<Node> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor).collect()
}

pub fn text<'s>(n: Node, src: &'s str) -> &'s str {
    n.utf8_text(src.as_bytes()).unwrap_or("")
}
