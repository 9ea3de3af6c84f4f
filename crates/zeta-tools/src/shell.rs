//! The `shell` tool: one `bash -c` command in the working folder, in a process group of
//! its own. On timeout (`commandTimeoutMs`) or cancel the whole group is killed. stdout
//! and stderr are each capped at `maxOutputLength` (head and tail kept) and stream to the
//! UI as they arrive.

use std::process::Stdio;
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;
use zeta_core::model::ToolSpec;
use zeta_core::tool::{Risk, Tool, ToolContext, ToolFuture, ToolOutput};

use crate::capture::Capture;

pub struct Shell;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    command: String,
    /// Overrides the working folder for this command.
    #[serde(default)]
    workdir: Option<String>,
}

/// How long to keep reading after the command exits, for output still in the pipes.
/// Background processes it started may hold the pipes open; they are left running.
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(300);

impl Tool for Shell {
    fn target(&self, arguments: &Value) -> String {
        crate::describe::clip(crate::describe::text(arguments, "command"), 400)
    }
    fn workdir(&self, arguments: &Value, base: &std::path::Path) -> std::path::PathBuf {
        match crate::describe::text(arguments, "workdir") {
            "" => base.to_path_buf(),
            dir => crate::files::resolve(dir, base),
        }
    }
    fn risk(&self, arguments: &Value, _workdir: &std::path::Path) -> Risk {
        zeta_core::policy::command_risk(crate::describe::text(arguments, "command"))
    }
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "shell".into(),
            description: "Run one bash command and get its exit code, stdout and stderr. \
                          Chain dependent steps with &&."
                .into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "the bash command line"},
                    "workdir": {"type": "string", "description": "folder to run in (optional)"}
                },
                "required": ["command"],
                "additionalProperties": false
            }),
        }
    }

    fn has_side_effects(&self) -> bool {
        true
    }
    fn changes_things(&self, arguments: &Value) -> bool {
        !zeta_core::policy::reads_only(crate::describe::text(arguments, "command"))
    }
    fn taints(&self, arguments: &Value, _output: &ToolOutput) -> bool {
        let command = arguments
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or_default();
        !zeta_core::policy::reports_metadata_only(command)
    }

    fn commands(&self, arguments: &Value) -> Vec<String> {
        arguments
            .get("command")
            .and_then(Value::as_str)
            .map(|c| vec![c.to_string()])
            .unwrap_or_default()
    }

    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match serde_json::from_value(arguments) {
                Ok(args) => args,
                Err(e) => return ToolOutput::error(format!("shell: bad arguments: {e}")),
            };
            if args.command.trim().is_empty() {
                return ToolOutput::error("shell: the command is empty");
            }
            run_command(&args, ctx).await
        })
    }
}

enum Ending {
    Exited(Option<i32>),
    TimedOut,
    Cancelled,
}

async fn run_command(args: &Args, ctx: &ToolContext) -> ToolOutput {
    let workdir = match args.workdir.as_deref() {
        Some(dir) if !dir.is_empty() => crate::files::resolve(dir, &ctx.workdir),
        _ => ctx.workdir.clone(),
    };
    let argv = ["-c".to_string(), args.command.clone()];
    run_process("bash", &argv, &args.command, &workdir, ctx).await
}

/// Runs `program argv…` in `workdir` in its own process group, with the context's
/// timeout, cancel and output limits. `shown` is how the command is echoed to the model.
pub async fn run_process(
    program: &str,
    argv: &[String],
    shown: &str,
    workdir: &std::path::Path,
    ctx: &ToolContext,
) -> ToolOutput {
    let watch = ctx.keeper.as_ref().map(|_| crate::watch::prepare());
    let spawned = match build(
        program,
        argv,
        workdir,
        ctx,
        watch.as_ref().and_then(|w| w.as_ref().ok()),
    ) {
        Ok(command) => command.spawn_watched(),
        Err(e) => return ToolOutput::error(format!("{shown}: not run: {e}")),
    };
    let (mut child, watching) = match (spawned, watch, &ctx.keeper) {
        (Ok(child), Some(Ok(prepared)), Some(keeper)) => {
            let watching = crate::watch::start(prepared, keeper.clone());
            if let Err(e) = &watching {
                keeper.unwatched(&format!("{shown}: {e}"));
            }
            (child, watching.ok())
        }
        (Ok(child), watch, keeper) => {
            if let (Some(Err(e)), Some(keeper)) = (watch, keeper) {
                keeper.unwatched(&format!("{shown}: {e}"));
            }
            (child, None)
        }
        // Where the kernel refuses the watch, the call runs unwatched, and says so.
        (Err(e), Some(Ok(_)), Some(keeper)) => {
            keeper.unwatched(&format!("{shown}: could not watch its changes ({e})"));
            match build(program, argv, workdir, ctx, None).map(Started::spawn_watched) {
                Ok(Ok(child)) => (child, None),
                Ok(Err(e)) => return not_started(program, workdir, &e),
                Err(e) => return ToolOutput::error(format!("{shown}: not run: {e}")),
            }
        }
        (Err(e), _, _) => return not_started(program, workdir, &e),
    };
    let _watching = watching;
    let group = child.id().map(|id| Pid::from_raw(id as i32));
    let _live = group.map(LiveGroup::enter);
    let limit = ctx.max_output_length;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let out_task = tokio::spawn(read_stream(stdout, limit, ctx.on_output.clone()));
    let err_task = tokio::spawn(read_stream(stderr, limit, ctx.on_output.clone()));

    let mut cancel = ctx.cancel.clone();
    let timeout = Duration::from_millis(ctx.command_timeout_ms);
    let ending = tokio::select! {
        status = child.wait() => Ending::Exited(status.ok().and_then(|s| s.code())),
        _ = tokio::time::sleep(timeout) => Ending::TimedOut,
        _ = cancel.cancelled() => Ending::Cancelled,
    };
    if !matches!(ending, Ending::Exited(_)) {
        if let Some(group) = group {
            // The whole group: the program and everything it started.
            let _ = killpg(group, Signal::SIGKILL);
        }
        let _ = child.wait().await;
    }
    let stdout = finish_reading(out_task).await;
    let stderr = finish_reading(err_task).await;
    let left = group.map_or_else(String::new, |sid| left_running(sid.as_raw(), &ending, ctx));
    let mut output = render(shown, ending, stdout, stderr, limit, ctx.command_timeout_ms);
    output.content.push_str(&left);
    output
}

/// What the call left running in its session: ended now when the call was stopped,
/// else ended with the task unless a person approved the call; said to the model.
fn left_running(sid: i32, ending: &Ending, ctx: &ToolContext) -> String {
    let left = crate::seal::session_members(sid);
    if left.is_empty() {
        return String::new();
    }
    if !matches!(ending, Ending::Exited(_)) {
        crate::seal::end_session(sid);
        return String::new();
    }
    let named: Vec<String> = left
        .iter()
        .map(|(pid, name)| format!("{pid} {name}"))
        .collect();
    let fate = match ctx.session {
        zeta_core::tool::Session::Closed => {
            ctx.at_task_end.push(move || crate::seal::end_session(sid));
            "they are ended when this task ends"
        }
        zeta_core::tool::Session::Open => {
            "they keep running after this task (the user approved this command)"
        }
    };
    format!(
        "\n(still running in the background: {}; {fate})",
        named.join(", ")
    )
}

/// A command ready to start.
struct Started(Command);

impl Started {
    fn spawn_watched(mut self) -> std::io::Result<tokio::process::Child> {
        self.0.spawn()
    }
}

fn not_started(program: &str, workdir: &std::path::Path, e: &std::io::Error) -> ToolOutput {
    ToolOutput::error(format!(
        "could not start {program} in {}: {e}",
        workdir.display()
    ))
}

/// The command for `program argv…`: its own process group, a scrubbed environment,
/// confined to the task's writable set, and watched for undo when `watch` is given.
fn build(
    program: &str,
    argv: &[String],
    workdir: &std::path::Path,
    ctx: &ToolContext,
    watch: Option<&crate::watch::Prepared>,
) -> Result<Started, String> {
    let mut command = Command::new(program);
    command
        .args(argv)
        .current_dir(workdir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    crate::child_env::scrub(&mut command);
    // First (Landlock forbids mounting afterwards): what it may reach of the person's
    // desktop session.
    let doors = crate::doors::prepare(ctx.session).map_err(|e| e.to_string())?;
    crate::doors::apply(&mut command, doors);
    // A session of its own (so a process group of its own, ended whole), with no
    // terminal to type into; unapproved, one it cannot leave.
    crate::seal::apply(
        &mut command,
        ctx.session == zeta_core::tool::Session::Closed,
    );
    if let Some(writable) = &ctx.confine {
        // Fails closed: an unconfined run needs the user's approval.
        let rules = crate::confine::rules(writable).map_err(|e| e.to_string())?;
        crate::confine::apply(&mut command, rules);
    }
    if let Some(prepared) = watch {
        crate::watch::install(&mut command, prepared);
    }
    Ok(Started(command))
}

/// The process groups of the calls running now, for a process that must exit at once
/// (a second SIGTERM) and cannot wait for each call to end its own.
static LIVE_GROUPS: std::sync::Mutex<Vec<Pid>> = std::sync::Mutex::new(Vec::new());

/// A group in `LIVE_GROUPS` while its call runs.
struct LiveGroup(Pid);

impl LiveGroup {
    fn enter(group: Pid) -> Self {
        LIVE_GROUPS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(group);
        Self(group)
    }
}

impl Drop for LiveGroup {
    fn drop(&mut self) {
        LIVE_GROUPS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|g| *g != self.0);
    }
}

/// Kills (SIGKILL) the process group of every call still running; returns how many.
pub fn kill_live_groups() -> usize {
    let groups = LIVE_GROUPS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    groups
        .iter()
        .filter(|group| killpg(**group, Signal::SIGKILL).is_ok())
        .count()
}

async fn read_stream(
    stream: Option<impl AsyncRead + Unpin>,
    limit: usize,
    on_output: std::sync::Arc<dyn Fn(&str) + Send + Sync>,
) -> Capture {
    let mut capture = Capture::new(limit);
    let Some(mut stream) = stream else {
        return capture;
    };
    let mut buf = vec![0u8; 8192];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                capture.push(&buf[..n]);
                on_output(&String::from_utf8_lossy(&buf[..n]));
            }
        }
    }
    capture
}

async fn finish_reading(task: tokio::task::JoinHandle<Capture>) -> Option<Capture> {
    let abort = task.abort_handle();
    match tokio::time::timeout(DRAIN_AFTER_EXIT, task).await {
        Ok(Ok(capture)) => Some(capture),
        _ => {
            abort.abort();
            None
        }
    }
}

/// What a small model should do after an ending that usually makes it give up or make
/// something up: said in general terms, for any program.
fn next_step(ending: &Ending, no_stdout: bool, no_stderr: bool, reads: bool) -> &'static str {
    match ending {
        Ending::Exited(Some(1)) if no_stdout && no_stderr => {
            "\n(next: exit 1 with no output usually means nothing matched (grep, find, test). \
             Before saying it is not there, search more broadly: ignore case (-i), a shorter \
             pattern, another folder.)"
        }
        Ending::Exited(Some(126 | 127)) => {
            "\n(next: that program is missing or cannot run here. Use another program that \
             does the same; do not install software, and do not report a result this \
             command could not give.)"
        }
        // A change (`echo 3 > ~/count.txt`, `mv a b`) prints nothing when it works: no
        // hint, which made a small model look for a value it did not need.
        Ending::Exited(Some(0)) if no_stdout && no_stderr && reads => {
            "\n(next: if the request needs a value, this gave none: take another step that \
             prints it, for example one that shows the input itself. Do not ask the user for \
             what a command can print.)"
        }
        Ending::Exited(Some(0)) => "",
        Ending::Exited(Some(_)) => {
            "\n(next: the command failed. Read what it printed, then fix the command or take \
             another way; do not report a result it did not give.)"
        }
        _ => "",
    }
}

fn render(
    command: &str,
    ending: Ending,
    stdout: Option<Capture>,
    stderr: Option<Capture>,
    limit: usize,
    timeout_ms: u64,
) -> ToolOutput {
    let (status, ok, summary) = match ending {
        Ending::Exited(Some(code)) => (format!("exit code {code}"), code == 0, format!("exit {code}")),
        Ending::Exited(None) => ("killed by a signal".to_string(), false, "killed".to_string()),
        Ending::TimedOut => (
            format!("timed out after {timeout_ms} ms; the command and everything it started were killed"),
            false,
            format!("timed out after {timeout_ms} ms"),
        ),
        Ending::Cancelled => (
            "cancelled by the user; the command and everything it started were killed".to_string(),
            false,
            "cancelled".to_string(),
        ),
    };
    // Each section, and whether it printed nothing but blanks (nothing at all included).
    let section = |name: &str, capture: Option<Capture>| match capture {
        Some(c) if c.total_bytes() == 0 => (String::new(), true),
        Some(c) => {
            let text = c.render(limit);
            let blank = text.trim().is_empty();
            (format!("\n{name}:\n{text}"), blank)
        }
        None => (
            format!("\n{name}: (still held open by a background process; not read)"),
            false,
        ),
    };
    let ((out, out_blank), (err, err_blank)) =
        (section("stdout", stdout), section("stderr", stderr));
    // Said outright, so that a model does not read a result into an empty output (seen:
    // an awk that printed one space, answered with a value taken from elsewhere).
    let nothing = if out.is_empty() && err.is_empty() {
        "\n(no output: the command printed nothing)"
    } else if out_blank && err_blank {
        "\n(no output: the command printed only blanks)"
    } else {
        ""
    };
    let reads = zeta_core::policy::reads_only(command);
    // A reader given no file reads the shell's empty input: whatever it printed, a count
    // or a sort of nothing, is said to be so (seen: `wc -w ` for "how many words are in
    // my essay.txt", "0" answered).
    let given_nothing = zeta_core::policy::shell::reads_nothing(
        command,
        &zeta_core::policy::ShellEnv::current(std::path::Path::new("/")),
    );
    let next = match &given_nothing {
        Some(program) => format!(
            "\n(next: {program} was given no file and nothing was piped into it, so it read \
             nothing: what it printed is of nothing. Give it the file to read.)"
        ),
        None => next_step(&ending, out_blank, err_blank, reads).to_string(),
    };
    // The command itself is not repeated: the model's own call names it (measured: ~20
    // tokens a step that the local model had to read again).
    let content = format!("{status}{out}{err}{nothing}{next}");
    ToolOutput {
        ok,
        content,
        summary,
        images: Vec::new(),
        read_back: None,
        shows: None,
    }
}
