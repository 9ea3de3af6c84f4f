//! zeta-tools: the tools the agent acts with, each a `zeta_core::tool::Tool`.
//!
//! - [`shell`]: `bash -c` in its own process group, with timeout, kill and capped output.
//! - [`run_code`]: a Python, bash or Node program run from a temporary folder.
//! - [`files`]: read_file, write_file, list_directory, search_files.
//! - [`http`]: the `http_request` tool.
//! - [`open`]: open_url, open_app (no shell strings).
//! - [`screen`]: screenshot (capture, downscale, encode, coordinate mapping).
//! - [`input`]: mouse and keyboard.
//! - [`memory`]: memory_save, memory_search.
//! - [`schedule`]: schedule_task, list_scheduled.
//! - [`capture`]: capped output capture (head and tail kept, binary detected).
//! - [`confine`]: Landlock confinement of the processes `shell` and `run_code` start.
//! - [`environment`]: the snapshot of the computer that opens each task's prompt.
//! - [`session`]: the session (X11 or Wayland) the screen, input and window tools act in.
//! - [`windows`]: the top-level windows that show (X11, or sway's IPC on sway).

mod args;
pub mod capture;
pub mod child_env;
pub mod confine;
mod describe;
pub mod doors;
pub mod environment;
pub mod files;
pub mod focus;
pub mod http;
pub mod input;
pub mod memory;
pub mod open;
pub mod run_code;
pub mod schedule;
pub mod screen;
pub mod seal;
mod seccomp;
pub mod session;
pub mod settings;
pub mod shell;
pub mod shm;
pub mod watch;
pub mod windows;
mod write_at;

use std::sync::Arc;

use zeta_core::tool::ToolRegistry;

/// Every tool this crate provides, ready for the agent loop. The screen and input tools
/// share the last screenshot's coordinate mapping.
pub fn registry() -> ToolRegistry {
    registry_sharing(input::InputState::default())
}

/// The same, with the mouse and keyboard on `input`, the connection other tools that
/// move the pointer share (the screen-element tools).
pub fn registry_sharing(input: input::InputState) -> ToolRegistry {
    let screen = screen::ScreenState::default();
    let mut tools = ToolRegistry::new();
    tools.register(Arc::new(shell::Shell));
    tools.register(Arc::new(run_code::RunCode));
    tools.register(Arc::new(files::ReadFile));
    tools.register(Arc::new(files::WriteFile));
    tools.register(Arc::new(files::ListDirectory));
    tools.register(Arc::new(files::SearchFiles));
    tools.register(Arc::new(http::HttpRequest));
    tools.register(Arc::new(open::OpenUrl));
    tools.register(Arc::new(open::OpenApp));
    tools.register(Arc::new(screen::Screenshot(screen.clone())));
    tools.register(Arc::new(input::Mouse(screen.clone(), input.clone())));
    tools.register(Arc::new(input::KeyboardTool(screen, input)));
    tools
}
