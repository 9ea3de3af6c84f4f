//! The agent that runs tasks: the core loop, with each task's model built from that task's
//! settings (zeta-llm) and the tools from zeta-tools. Commands run in the user's home folder.

use std::path::PathBuf;

use zeta_core::{AgentLoop, ZetaHome};
use zeta_llm::SettingsModels;

pub type ConfiguredAgent = AgentLoop<SettingsModels>;

pub fn configured_agent(home: &ZetaHome) -> ConfiguredAgent {
    let workdir = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| home.root().to_path_buf());
    AgentLoop::new(
        SettingsModels::new(zeta_llm::SecretStore::for_home(home.root())),
        zeta_tools::registry(),
        home.root().join("souls"),
        workdir,
    )
}
