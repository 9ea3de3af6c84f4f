//! File tools: `read_file`, `write_file`, `list_directory` and `search_files` (by name glob
//! and by content). Relative paths are taken from the working folder and `~` is the home
//! folder. Every read and listing has a size or count limit.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;

use crate::args::parse;
use zeta_core::tool::{Risk, TextWrite, Tool, ToolContext, ToolFuture, ToolOutput};

/// Largest file `read_file` opens, and largest file `search_files` looks inside.
const MAX_READ_BYTES: u64 = 10 * 1024 * 1024;
const MAX_SEARCH_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// `path` as the tools open it: `~` is the home folder, and a relative path is taken from
/// `workdir`.
pub fn resolve(path: &str, workdir: &Path) -> PathBuf {
    let expanded = match path.strip_prefix("~") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => std::env::var_os("HOME")
            .map(|h| PathBuf::from(h).join(rest.trim_start_matches('/')))
            .unwrap_or_else(|| PathBuf::from(path)),
        _ => PathBuf::from(path),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        workdir.join(expanded)
    }
}

fn spec(name: &str, description: &str, parameters: Value) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: description.into(),
        parameters,
    }
}

fn looks_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|b| *b == 0)
}

pub struct ReadFile;

#[derive(Deserialize)]
struct ReadArgs {
    path: String,
    #[serde(default = "one")]
    start_line: usize,
    #[serde(default = "default_lines")]
    max_lines: usize,
}
fn one() -> usize {
    1
}
fn default_lines() -> usize {
    400
}

impl Tool for ReadFile {
    fn target(&self, arguments: &Value) -> String {
        crate::describe::text(arguments, "path").to_string()
    }
    fn spec(&self) -> ToolSpec {
        spec(
            "read_file",
            "Read a text file, or a range of its lines.",
            json!({"type": "object", "properties": {
                "path": {"type": "string"},
                "start_line": {"type": "integer", "minimum": 1, "description": "first line (1-based)"},
                "max_lines": {"type": "integer", "minimum": 1, "maximum": 5000}
            }, "required": ["path"], "additionalProperties": false}),
        )
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: ReadArgs = match parse("read_file", arguments) {
                Ok(a) => a,
                Err(e) => return e,
            };
            let path = resolve(&args.path, &ctx.workdir);
            let mut bytes = Vec::new();
            // Opened without waiting (a FIFO with no writer would block forever), and read
            // only when it is a regular file.
            let opened = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&path);
            if let Ok(kind) = opened.as_ref().map(|f| f.metadata().map(|m| m.file_type())) {
                if let Some(what) = kind.ok().and_then(|t| not_a_file(&t)) {
                    return ToolOutput::error(format!(
                        "read_file: {} is {what}, not a file: read_file reads files only (a \
                         program writing to it could keep a read waiting forever)",
                        path.display()
                    ));
                }
            }
            let read = opened.and_then(|f| f.take(MAX_READ_BYTES).read_to_end(&mut bytes));
            if let Err(e) = read {
                return ToolOutput::error(format!(
                    "read_file: cannot read {}: {e}",
                    path.display()
                ));
            }
            if looks_binary(&bytes) {
                return ToolOutput::ok(
                    format!(
                        "{} is a binary file ({} bytes); not shown.",
                        path.display(),
                        bytes.len()
                    ),
                    "binary file",
                );
            }
            let text = String::from_utf8_lossy(&bytes);
            let total = text.lines().count();
            let first = args.start_line.max(1);
            let mut shown = String::new();
            let mut last = first.saturating_sub(1);
            for (i, line) in text
                .lines()
                .enumerate()
                .skip(first - 1)
                .take(args.max_lines)
            {
                if shown.len() + line.len() > ctx.max_output_length.max(1000) * 4 {
                    break;
                }
                shown.push_str(line);
                shown.push('\n');
                last = i + 1;
            }
            let more = if last < total {
                format!(
                    "\n[lines {first}-{last} of {total}; ask with start_line={} for more]",
                    last + 1
                )
            } else {
                String::new()
            };
            ToolOutput::ok(
                format!("{}:\n{shown}{more}", path.display()),
                format!(
                    "read {} lines of {}",
                    last + 1 - first.min(last + 1),
                    path.display()
                ),
            )
        })
    }
}

pub struct WriteFile;

#[derive(Deserialize)]
struct WriteArgs {
    path: String,
    content: String,
    #[serde(default)]
    append: bool,
}

impl Tool for WriteFile {
    fn target(&self, arguments: &Value) -> String {
        crate::describe::text(arguments, "path").to_string()
    }
    fn risk(&self, arguments: &Value, workdir: &Path) -> Risk {
        // Overwriting is high; a new file is medium. The path is the one `run` writes.
        let path = resolve(crate::describe::text(arguments, "path"), workdir);
        if path.exists() {
            Risk::High
        } else {
            Risk::Medium
        }
    }
    fn spec(&self) -> ToolSpec {
        spec(
            "write_file",
            "Write text to a file (replacing it, or appending), creating missing folders.",
            json!({"type": "object", "properties": {
                "path": {"type": "string"},
                "content": {"type": "string"},
                "append": {"type": "boolean"}
            }, "required": ["path", "content"], "additionalProperties": false}),
        )
    }
    /// The write as the shell line with the same effect on the file (`: > PATH`), so
    /// writes the shell may not make (account files, startup files, disks) are judged
    /// the same way.
    fn commands(&self, arguments: &Value) -> Vec<String> {
        let path = crate::describe::text(arguments, "path");
        let op = if arguments.get("append").and_then(Value::as_bool) == Some(true) {
            ">>"
        } else {
            ">"
        };
        vec![format!(
            ": {op} {}",
            zeta_core::policy::shell::quote_path(path)
        )]
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        // It reports only that the file was written.
        false
    }
    fn named_writes(&self, arguments: &Value, base: &Path) -> Vec<PathBuf> {
        match crate::describe::text(arguments, "path") {
            "" => Vec::new(),
            path => vec![resolve(path, base)],
        }
    }
    fn writes_text(&self, arguments: &Value, base: &Path) -> Option<TextWrite> {
        let args: WriteArgs = serde_json::from_value(arguments.clone()).ok()?;
        Some(TextWrite {
            path: resolve(&args.path, base),
            text: args.content,
            append: args.append,
        })
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: WriteArgs = match parse("write_file", arguments) {
                Ok(a) => a,
                Err(e) => return e,
            };
            let path = resolve(&args.path, &ctx.workdir);
            if let Some(keeper) = &ctx.keeper {
                tell_write(keeper.as_ref(), &path, args.append);
            }
            let same_meaning = |real: &Path| same_meaning(&path, real, args.append, ctx);
            let written = (|| -> Result<(), crate::write_at::WriteAtError> {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                let (mut file, _) =
                    crate::write_at::open_for_write(&path, args.append, &same_meaning)?;
                std::io::Write::write_all(&mut file, args.content.as_bytes())?;
                Ok(())
            })();
            match written {
                Ok(()) => {
                    let verb = if args.append { "appended" } else { "wrote" };
                    let text = format!("{verb} {} bytes to {}", args.content.len(), path.display());
                    ToolOutput::ok(text.clone(), text)
                }
                Err(e) => {
                    ToolOutput::error(format!("write_file: cannot write {}: {e}", path.display()))
                }
            }
        })
    }
}

/// Whether writing `real` (where `path` really leads now) means what writing `path`
/// was judged to mean: not judged stricter by the shell judge, and inside the task's
/// writable set when the call runs confined.
fn same_meaning(path: &Path, real: &Path, append: bool, ctx: &ToolContext) -> Result<(), String> {
    use zeta_core::policy::shell::{judge, quote_path, ShellEnv, Verdict};
    let env = ShellEnv::current(&ctx.workdir);
    let op = if append { ">>" } else { ">" };
    let strictness = |p: &Path| match judge(
        &format!(": {op} {}", quote_path(&p.to_string_lossy())),
        &env,
    ) {
        Verdict::Allow => 0,
        Verdict::Ask(_) => 1,
        Verdict::Block(_) => 2,
    };
    if strictness(real) > strictness(path) {
        return Err(
            "a path Zeta would not write on the same terms (a symbolic link on the way \
                    leads there); write to that path itself, so it is judged as what it is"
                .into(),
        );
    }
    if let Some(writable) = &ctx.confine {
        if writable.allows(path, &ctx.workdir) && !writable.allows(real, &ctx.workdir) {
            return Err(format!(
                "outside the folders this task may change on its own ({})",
                writable.describe()
            ));
        }
    }
    Ok(())
}

/// What a path that is not a regular file is, in words (`None`: a regular file).
pub(crate) fn not_a_file(kind: &std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("a folder")
    } else if kind.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if kind.is_socket() {
        Some("a socket")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("a device")
    } else {
        Some("not a regular file")
    }
}

/// Tells the keeper (undo) of a write to `path` (`append`: to its end): the folders it
/// makes on the way, top first, then the file.
fn tell_write(keeper: &dyn zeta_core::undo::Keeper, path: &Path, append: bool) {
    use zeta_core::undo::Touch;
    let missing: Vec<&Path> = path
        .ancestors()
        .skip(1)
        .take_while(|dir| std::fs::symlink_metadata(dir).is_err())
        .collect();
    for dir in missing.into_iter().rev() {
        keeper.before(&Touch::Make(dir.to_path_buf()));
    }
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if append && path.is_file() {
        keeper.before(&Touch::Append(path));
    } else {
        keeper.before(&Touch::Write { path, create: true });
    }
}

pub struct ListDirectory;

#[derive(Deserialize)]
struct ListArgs {
    #[serde(default = "dot")]
    path: String,
    #[serde(default)]
    hidden: bool,
    #[serde(default = "default_entries")]
    limit: usize,
}
fn dot() -> String {
    ".".into()
}
fn default_entries() -> usize {
    200
}

impl Tool for ListDirectory {
    fn target(&self, arguments: &Value) -> String {
        crate::describe::text(arguments, "path").to_string()
    }
    fn spec(&self) -> ToolSpec {
        spec(
            "list_directory",
            "List a folder: sub-folders first (with a trailing /), then files with their sizes.",
            json!({"type": "object", "properties": {
                "path": {"type": "string"},
                "hidden": {"type": "boolean", "description": "include dot files"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 2000}
            }, "additionalProperties": false}),
        )
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        // Names, sizes and dates, not what the files say.
        false
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: ListArgs = match parse("list_directory", arguments) {
                Ok(a) => a,
                Err(e) => return e,
            };
            let path = resolve(&args.path, &ctx.workdir);
            let entries = match std::fs::read_dir(&path) {
                Ok(e) => e,
                Err(e) => {
                    return ToolOutput::error(format!(
                        "list_directory: cannot list {}: {e}",
                        path.display()
                    ))
                }
            };
            let mut dirs = Vec::new();
            let mut files = Vec::new();
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().to_string();
                if !args.hidden && name.starts_with('.') {
                    continue;
                }
                match entry.metadata() {
                    Ok(m) if m.is_dir() => dirs.push(format!("{name}/")),
                    Ok(m) => files.push(format!("{name}  {} bytes", m.len())),
                    Err(_) => files.push(name),
                }
            }
            dirs.sort();
            files.sort();
            let total = dirs.len() + files.len();
            let listed: Vec<String> = dirs.into_iter().chain(files).take(args.limit).collect();
            let more = if total > listed.len() {
                format!("\n[{} more entries not shown]", total - listed.len())
            } else {
                String::new()
            };
            ToolOutput::ok(
                format!("{}:\n{}{more}", path.display(), listed.join("\n")),
                format!("{total} entries in {}", path.display()),
            )
        })
    }
}

pub struct SearchFiles;

#[derive(Deserialize)]
struct SearchArgs {
    #[serde(default = "dot")]
    root: String,
    name: Option<String>,
    content: Option<String>,
    #[serde(default)]
    case_sensitive: bool,
    #[serde(default = "default_results")]
    max_results: usize,
}
fn default_results() -> usize {
    100
}

impl Tool for SearchFiles {
    /// The folder searched (the working folder when none is named), then what is looked
    /// for: `~/logs: named *.log, containing "error"`.
    fn target(&self, arguments: &Value) -> String {
        let root = match crate::describe::text(arguments, "root") {
            "" => ".",
            root => root,
        };
        let mut what = Vec::new();
        if let Some(name) = arguments.get("name").and_then(Value::as_str) {
            what.push(format!("named {name}"));
        }
        if let Some(content) = arguments.get("content").and_then(Value::as_str) {
            what.push(format!(
                "containing \"{}\"",
                crate::describe::clip(content, 80)
            ));
        }
        crate::describe::clip(&format!("{root}: {}", what.join(", ")), 300)
    }
    fn spec(&self) -> ToolSpec {
        spec(
            "search_files",
            "Find files under a folder by name glob (e.g. *.log) and/or by text they contain. \
             Content matches are listed as path:line: text. Hidden folders are skipped.",
            json!({"type": "object", "properties": {
                "root": {"type": "string"},
                "name": {"type": "string", "description": "glob on the file name, e.g. *.rs"},
                "content": {"type": "string", "description": "text to look for inside files"},
                "case_sensitive": {"type": "boolean"},
                "max_results": {"type": "integer", "minimum": 1, "maximum": 1000}
            }, "additionalProperties": false}),
        )
    }
    fn has_side_effects(&self) -> bool {
        false
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: SearchArgs = match parse("search_files", arguments) {
                Ok(a) => a,
                Err(e) => return e,
            };
            if args.name.is_none() && args.content.is_none() {
                return ToolOutput::error(
                    "search_files: give `name` (a glob), `content` (text), or both",
                );
            }
            let root = resolve(&args.root, &ctx.workdir);
            if !root.is_dir() {
                return ToolOutput::error(format!(
                    "search_files: {} is not a folder",
                    root.display()
                ));
            }
            let glob = match args.name.as_deref().map(|g| {
                globset::GlobBuilder::new(g)
                    .case_insensitive(!args.case_sensitive)
                    .build()
            }) {
                Some(Ok(g)) => Some(g.compile_matcher()),
                Some(Err(e)) => return ToolOutput::error(format!("search_files: bad glob: {e}")),
                None => None,
            };
            let needle = args.content.as_deref().map(|c| {
                if args.case_sensitive {
                    c.to_string()
                } else {
                    c.to_lowercase()
                }
            });
            let cancel = ctx.cancel.clone();
            let max = args.max_results;
            let case_sensitive = args.case_sensitive;
            let found = tokio::task::spawn_blocking(move || {
                search(
                    &root,
                    glob.as_ref(),
                    needle.as_deref(),
                    case_sensitive,
                    max,
                    &cancel,
                )
            })
            .await
            .unwrap_or_else(|e| (vec![format!("search stopped: {e}")], false));
            let (hits, truncated) = found;
            let more = if truncated {
                format!("\n[stopped at {max} results]")
            } else {
                String::new()
            };
            let summary = format!("{} matches", hits.len());
            if hits.is_empty() {
                return ToolOutput::ok("no matches", summary);
            }
            ToolOutput::ok(format!("{}{more}", hits.join("\n")), summary)
        })
    }
}

fn search(
    root: &Path,
    glob: Option<&globset::GlobMatcher>,
    needle: Option<&str>,
    case_sensitive: bool,
    max: usize,
    cancel: &zeta_core::CancelToken,
) -> (Vec<String>, bool) {
    let mut hits = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .max_depth(32)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker.flatten() {
        if cancel.is_cancelled() {
            break;
        }
        if !entry.file_type().is_file() {
            continue;
        }
        if let Some(glob) = glob {
            if !glob.is_match(entry.file_name()) {
                continue;
            }
        }
        let path = entry.path();
        let Some(needle) = needle else {
            hits.push(path.display().to_string());
            if hits.len() >= max {
                return (hits, true);
            }
            continue;
        };
        if entry
            .metadata()
            .map(|m| m.len() > MAX_SEARCH_FILE_BYTES)
            .unwrap_or(true)
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        if looks_binary(&bytes) {
            continue;
        }
        for (n, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
            let matches = if case_sensitive {
                line.contains(needle)
            } else {
                line.to_lowercase().contains(needle)
            };
            if matches {
                let line: String = line.trim().chars().take(200).collect();
                hits.push(format!("{}:{}: {line}", path.display(), n + 1));
                if hits.len() >= max {
                    return (hits, true);
                }
            }
        }
    }
    (hits, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dialog names the folder searched and what is looked for (it read `path`, an
    /// argument `search_files` does not have, and showed nothing).
    #[test]
    fn a_search_names_its_folder_and_what_it_looks_for() {
        let target = SearchFiles.target(&json!({"root": "~/logs", "name": "*.log"}));
        assert_eq!(target, "~/logs: named *.log");
        let target = SearchFiles.target(&json!({"content": "error", "name": "*.rs"}));
        assert_eq!(target, ".: named *.rs, containing \"error\"");
    }

    /// Overwriting is judged on the file `run` would write: a relative path from the
    /// task's folder, not from the home.
    #[test]
    fn overwriting_is_judged_on_the_file_that_would_be_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("kept.txt"), "x").expect("write");
        let args = json!({"path": "kept.txt", "content": "y"});
        assert_eq!(WriteFile.risk(&args, dir.path()), Risk::High);
        let args = json!({"path": "new.txt", "content": "y"});
        assert_eq!(WriteFile.risk(&args, dir.path()), Risk::Medium);
        let args = json!({"path": dir.path().join("kept.txt"), "content": "y"});
        assert_eq!(WriteFile.risk(&args, Path::new("/")), Risk::High);
    }
}
