//! The agent that runs tasks: the core loop, with each task's model built from that task's
//! settings (zeta-llm), the tools, memory and environment snapshot from zeta-tools.
//! Commands run in the user's home folder.

use std::path::PathBuf;

use zeta_core::{AgentLoop, CoreError, ZetaHome};
use zeta_llm::{SecretStore, SettingsModels};

pub type ConfiguredAgent = AgentLoop<SettingsModels>;

pub fn configured_agent(home: &ZetaHome) -> Result<ConfiguredAgent, CoreError> {
    let workdir = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| home.root().to_path_buf());
    let models = SettingsModels::new(SecretStore::for_home(home.root()));
    zeta_tools::configure(models, home, workdir)
}
