//! `open_url` and `open_app`: start a program for the user and leave it running. Programs
//! are started with an argument list, never through a shell string built from model text.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use zeta_core::model::ToolSpec;
use zeta_core::tool::{Risk, Tool, ToolContext, ToolFuture, ToolOutput};

/// How long a just-started program is watched for an immediate failure.
const STARTUP_WATCH: Duration = Duration::from_millis(700);

/// Starts `program args…` detached (own session and process group). Fails if it exits non-zero at once.
async fn launch(program: &Path, args: &[String], ctx: &ToolContext) -> Result<u32, String> {
    let mut command = tokio::process::Command::new(program);
    crate::child_env::scrub(&mut command);
    crate::child_env::accessible(&mut command).await;
    // An application is opened for the person: it sees their desktop session (it needs
    // the display), not Zeta's secrets.
    let doors = crate::doors::prepare(zeta_core::tool::Session::Open)
        .map_err(|e| format!("not started: {e}"))?;
    crate::doors::apply(&mut command, doors);
    // A session of its own, with no terminal to type into.
    crate::seal::apply(&mut command, false);
    // Confined like a command: it writes where the task may (for its whole life).
    if let Some(writable) = &ctx.confine {
        let rules = crate::confine::rules(writable).map_err(|e| format!("not started: {e}"))?;
        crate::confine::apply(&mut command, rules);
    }
    let mut child = command
        .args(args)
        .current_dir(&ctx.workdir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", program.display()))?;
    let pid = child.id().unwrap_or(0);
    match tokio::time::timeout(STARTUP_WATCH, child.wait()).await {
        Ok(Ok(status)) if !status.success() => {
            let mut err = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                let _ = tokio::io::AsyncReadExt::read_to_string(&mut stderr, &mut err).await;
            }
            Err(format!(
                "{} exited with {status}: {}",
                program.display(),
                err.trim()
            ))
        }
        Ok(Err(e)) => Err(format!("{}: {e}", program.display())),
        // Still running (an app), or done successfully (a launcher such as xdg-open).
        _ => {
            // Reap it in the background whenever it ends.
            tokio::spawn(async move {
                let _ = child.wait().await;
            });
            Ok(pid)
        }
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

pub struct OpenUrl;

#[derive(Deserialize)]
struct UrlArgs {
    url: String,
}

impl Tool for OpenUrl {
    fn target(&self, arguments: &Value) -> String {
        crate::describe::text(arguments, "url").to_string()
    }
    fn risk(&self, _arguments: &Value, _workdir: &std::path::Path) -> Risk {
        Risk::Low
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "open_url".into(),
            description:
                "Open a URL (http, https, file, mailto) in the user's default application.".into(),
            parameters: json!({"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        // It reports only that the page was opened; the model does not read it.
        false
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: UrlArgs = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("open_url: bad arguments: {e}")),
            };
            let url = args.url.trim();
            let scheme = url
                .split_once(':')
                .map(|(s, _)| s.to_ascii_lowercase())
                .unwrap_or_default();
            if !matches!(scheme.as_str(), "http" | "https" | "file" | "mailto")
                || url.chars().any(char::is_whitespace)
            {
                return ToolOutput::error(format!(
                    "open_url: {url:?} is not an http, https, file or mailto URL (without spaces)"
                ));
            }
            let Some(opener) = on_path("xdg-open") else {
                return ToolOutput::error(
                    "open_url: xdg-open is not installed (package xdg-utils)",
                );
            };
            match launch(&opener, &[url.to_string()], ctx).await {
                Ok(_) => ToolOutput::ok(format!("opened {url}"), format!("opened {url}")),
                Err(e) => ToolOutput::error(format!("open_url: {e}")),
            }
        })
    }
}

pub struct OpenApp;

#[derive(Deserialize)]
struct AppArgs {
    name: String,
    #[serde(default)]
    args: Vec<String>,
}

impl Tool for OpenApp {
    fn target(&self, arguments: &Value) -> String {
        let args: Vec<&str> = arguments
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        format!(
            "{} {}",
            crate::describe::text(arguments, "name"),
            args.join(" ")
        )
        .trim()
        .to_string()
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "open_app".into(),
            description:
                "Start an application by its desktop name (e.g. \"Text Editor\", \"firefox\") \
                          or its command, with optional arguments. It keeps running."
                    .into(),
            parameters: json!({"type": "object", "properties": {
                "name": {"type": "string", "minLength": 1},
                "args": {"type": "array", "items": {"type": "string"}}
            }, "required": ["name"], "additionalProperties": false}),
        }
    }
    fn has_side_effects(&self) -> bool {
        true
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        // It reports only that the app started.
        false
    }
    /// What it would run, as a command line the shell judge reads like any other (an
    /// app's program and arguments can do what a command can: `rm -rf ~`, `bash -c …`).
    /// A name that resolves to nothing is judged as written.
    fn commands(&self, arguments: &Value) -> Vec<String> {
        let Ok(args) = serde_json::from_value::<AppArgs>(arguments.clone()) else {
            return Vec::new();
        };
        let words: Vec<String> = match resolve_app(&args) {
            Some((program, argv, _)) => std::iter::once(program.display().to_string())
                .chain(argv)
                .collect(),
            None => std::iter::once(args.name.clone())
                .chain(args.args)
                .collect(),
        };
        vec![shell_words::join(words)]
    }
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: AppArgs = match serde_json::from_value(arguments) {
                Ok(a) => a,
                Err(e) => return ToolOutput::error(format!("open_app: bad arguments: {e}")),
            };
            let Some((program, argv, how)) = resolve_app(&args) else {
                return ToolOutput::error(format!(
                    "open_app: no desktop entry or command named {:?}",
                    args.name
                ));
            };
            let before = window_titles().await;
            match launch(&program, &argv, ctx).await {
                Ok(pid) => {
                    let mut text = format!("started {} ({how}) as pid {pid}", program.display());
                    match new_windows(&before).await {
                        Some(titles) if !titles.is_empty() => {
                            let names: Vec<String> =
                                titles.iter().map(|t| format!("\"{t}\"")).collect();
                            text.push_str(&format!(
                                "\nIts window is open: {}; read it with ui_outline.",
                                names.join(", ")
                            ));
                        }
                        Some(_) => text.push_str(&format!(
                            "\nNo new window showed within {} s (it may still be starting).",
                            WINDOW_WAIT.as_secs()
                        )),
                        None => {}
                    }
                    ToolOutput::ok(text, format!("started {}", args.name))
                }
                Err(e) => ToolOutput::error(format!("open_app: {e}")),
            }
        })
    }
}

/// How long a started application's first window is waited for.
const WINDOW_WAIT: Duration = Duration::from_secs(8);

async fn window_titles() -> Vec<String> {
    tokio::task::spawn_blocking(crate::windows::titles)
        .await
        .unwrap_or_default()
}

/// The windows that appeared since `before` (titles), once one has and the list has held
/// still for a moment, or empty after `WINDOW_WAIT`; `None` where the session does not
/// tell which windows show.
async fn new_windows(before: &[String]) -> Option<Vec<String>> {
    if !crate::windows::known() {
        return None;
    }
    let started = std::time::Instant::now();
    let mut last: Vec<String> = Vec::new();
    while started.elapsed() < WINDOW_WAIT {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let now = crate::windows::opened(before, &window_titles().await);
        if !now.is_empty() && now == last {
            return Some(now);
        }
        last = now;
    }
    Some(last)
}

/// The program an `open_app` call starts, its arguments (the entry's, then the call's)
/// and how it was found.
fn resolve_app(args: &AppArgs) -> Option<(PathBuf, Vec<String>, String)> {
    let (program, mut argv, how) = match desktop_entry(&args.name) {
        Some((program, argv, file)) => (program, argv, format!("desktop entry {}", file.display())),
        None => (on_path(&args.name)?, Vec::new(), "command".to_string()),
    };
    argv.extend(args.args.iter().cloned());
    Some((program, argv, how))
}

/// Finds a `.desktop` entry by file stem or `Name=`, returning its program and arguments
/// (field codes such as %u removed).
fn desktop_entry(name: &str) -> Option<(PathBuf, Vec<String>, PathBuf)> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(home) = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
    {
        dirs.push(home);
    }
    let system =
        std::env::var("XDG_DATA_DIRS").unwrap_or_else(|_| "/usr/local/share:/usr/share".into());
    dirs.extend(
        system
            .split(':')
            .filter(|d| !d.is_empty())
            .map(PathBuf::from),
    );
    let wanted = name.trim().to_lowercase();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir.join("applications")) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("desktop") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().to_lowercase())
                .unwrap_or_default();
            let field = |key: &str| {
                text.lines()
                    .skip_while(|l| l.trim() != "[Desktop Entry]")
                    .take_while(|l| !l.starts_with('[') || l.trim() == "[Desktop Entry]")
                    .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
            };
            let display = field("Name=").unwrap_or_default().to_lowercase();
            if stem != wanted && display != wanted {
                continue;
            }
            let exec = field("Exec=")?;
            let words = shell_words::split(&exec).ok()?;
            let words: Vec<String> = words
                .into_iter()
                .filter(|w| !(w.starts_with('%') && w.len() == 2))
                .collect();
            let (program, rest) = words.split_first()?;
            let program = on_path(program)?;
            return Some((program, rest.to_vec(), path));
        }
    }
    None
}
