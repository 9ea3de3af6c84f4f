//! zeta-tools: the tools the agent acts with, each a `zeta_core::tool::Tool`.
//!
//! - [`shell`]: `bash -c` in its own process group, with timeout, kill and capped output.
//! - [`run_code`]: a Python, bash or Node program run from a temporary folder.
//! - [`files`]: read_file, write_file, list_directory, search_files.
//! - [`http`]: the `http_request` tool.
//! - [`open`]: open_url, open_app (no shell strings).
//! - [`screen`]: screenshot (capture, downscale, encode, coordinate mapping).
//! - [`input`]: mouse and keyboard.
//! - [`capture`]: capped output capture (head and tail kept, binary detected).
//! - [`confine`]: Landlock confinement of the processes `shell` and `run_code` start.
//! - [`environment`]: the snapshot of the computer that opens each task's prompt.

pub mod capture;
pub mod confine;
mod describe;
pub mod environment;
pub mod files;
pub mod http;
pub mod input;
pub mod open;
pub mod run_code;
pub mod screen;
pub mod shell;

use std::sync::Arc;

use zeta_core::tool::ToolRegistry;

/// Every tool this crate provides, ready for the agent loop. The screen and input tools
/// share the last screenshot's coordinate mapping.
pub fn registry() -> ToolRegistry {
    let screen = screen::ScreenState::default();
    let input = input::InputState::default();
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

/// The agent loop as the app and CLI run it for `home`: this crate's tools plus the ones
/// that keep state in the home's database (memory_save, memory_search, schedule_task,
/// list_scheduled), memory, and the environment snapshot.
pub fn configure<S: zeta_core::agent_loop::ModelSource>(
    models: S,
    home: &zeta_core::ZetaHome,
    workdir: std::path::PathBuf,
) -> Result<zeta_core::AgentLoop<S>, zeta_core::CoreError> {
    let db = home.database_file();
    let memory = zeta_core::memory::MemoryStore::open(&db)?;
    let scheduler = zeta_core::scheduler::Scheduler::open(&db)?;
    let mut tools = registry();
    tools.register(Arc::new(zeta_core::memory::MemorySave(memory.clone())));
    tools.register(Arc::new(zeta_core::memory::MemorySearch(memory.clone())));
    tools.register(Arc::new(zeta_core::scheduler::ScheduleTask(
        scheduler.clone(),
    )));
    tools.register(Arc::new(zeta_core::scheduler::ListScheduled(scheduler)));
    let snapshot_dir = workdir.clone();
    Ok(
        zeta_core::AgentLoop::new(models, tools, home.souls_dir(), workdir)
            .with_memory(memory)
            .with_outputs_dir(home.outputs_dir())
            .with_environment(Arc::new(move || environment::snapshot(&snapshot_dir)))
            .with_confinement(zeta_core::Confinement {
                zeta_home: home.root().to_path_buf(),
                enforced: confine::support() == confine::Support::Available,
            }),
    )
}
