//! The agent that runs tasks: the core loop, with each task's model built from that task's
//! settings (zeta-llm), the tools, memory and environment snapshot from zeta-tools.
//! Commands run in the user's home folder. A `local` provider is served by Zeta's own
//! llama.cpp server (zeta-llm's `LocalServer`).

use std::path::PathBuf;
use std::sync::Arc;

use zeta_core::{AgentLoop, CoreError, ZetaHome};
use zeta_llm::{LocalServer, SecretStore, SettingsModels};

pub type ConfiguredAgent = AgentLoop<SettingsModels>;

/// The agent; `local` runs the model server when the provider is `local` (the caller
/// stops it when it exits).
pub fn configured_agent(
    home: &ZetaHome,
    local: Arc<LocalServer>,
) -> Result<ConfiguredAgent, CoreError> {
    let workdir = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| home.root().to_path_buf());
    let models = SettingsModels::new(SecretStore::for_home(home.root())).with_local_server(local);
    zeta_tools::configure(models, home, workdir)
}
