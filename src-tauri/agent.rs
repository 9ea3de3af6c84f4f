//! The composition root: the agent that runs tasks, built in dependency order from the
//! lower layers. The stores in the home's database (memory, scheduled jobs), zeta-tools'
//! tools with the memory and scheduling tools on those stores, each task's model built
//! from that task's settings (zeta-llm; a `local` provider is served by Zeta's own
//! llama.cpp server), the MCP servers' tools chosen per task (zeta-mcp), and the
//! environment snapshot and write confinement. The app, the CLI and the tests all run
//! this one agent.

use std::path::PathBuf;
use std::sync::Arc;

use zeta_core::assist::windows::ShownWindow;
use zeta_core::store::memory::MemoryStore;
use zeta_core::store::scheduler::Scheduler;
use zeta_core::{AgentLoop, Confinement, CoreError, ZetaHome};
use zeta_llm::{LocalServer, SecretStore, SettingsModels};
use zeta_mcp::McpManager;
use zeta_tools::{confine, environment, memory, schedule};

pub type ConfiguredAgent = AgentLoop<SettingsModels>;

/// Where commands run: the user's home folder, else Zeta's.
pub fn user_workdir(home: &ZetaHome) -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| home.root().to_path_buf())
}

/// The skills of `home`: Zeta's own and the person's folder (`$ZETA_HOME/skills`).
pub fn skills(home: &ZetaHome) -> Arc<zeta_skills::Skills> {
    Arc::new(zeta_skills::Skills::for_home(home))
}

/// The skills as a task's first turn shows them: chosen by meaning for a small model
/// (the choosing model loaded on first use, the descriptions' vectors kept in the home),
/// among those `ZETA_SKILLS_SMALL=all|yours|off` lets it have (all by default; measured
/// each way in benches/everyday).
pub fn skills_note(
    home: &ZetaHome,
    skills: Arc<zeta_skills::Skills>,
) -> zeta_skills::note::SkillsNote {
    let chooser = zeta_skills::choose::Chooser::new(
        Some(Box::new(zeta_skills::embed::Lazy::new(Some(
            home.models_dir(),
        )))),
        zeta_skills::choose::Tuning::default(),
    )
    .keeping_vectors(home.skill_vectors_file());
    zeta_skills::note::SkillsNote::new(
        skills,
        Arc::new(chooser),
        zeta_skills::note::SmallOffer::from_env(),
    )
}

/// The MCP servers of `home`: their secrets (`${secret:NAME}`) from the home's secret
/// store, their stderr in its logs folder. The caller shuts them down when it exits.
pub fn mcp_manager(home: &ZetaHome) -> Arc<McpManager> {
    let secrets = SecretStore::for_home(home.root());
    let lookup = move |name: &str| match secrets.get(name) {
        Ok(found) => found.map(|s| s.expose().to_string()),
        Err(e) => {
            tracing::warn!("could not read the secret `{name}` for an MCP server: {e}");
            None
        }
    };
    McpManager::new(
        Arc::new(lookup),
        Some(home.logs_dir()),
        Some(home.mcp_tools_file()),
        Some(home.mcp_reviewed_file()),
    )
}

/// The agent for `home`, running commands in `workdir`; `local` runs the model server
/// when the provider is `local`, and `mcp` the MCP servers (the caller stops both when
/// it exits).
pub fn configured_agent(
    home: &ZetaHome,
    local: Arc<LocalServer>,
    mcp: Arc<McpManager>,
    workdir: PathBuf,
) -> Result<ConfiguredAgent, CoreError> {
    let db = home.database_file();
    let memory = MemoryStore::open(&db)?;
    let scheduler = Scheduler::open(&db)?;
    // One pointer and keyboard connection for the mouse, keyboard and element tools.
    // On GNOME and KDE it is the desktop's portal, whose restore token is kept here.
    let input = zeta_tools::input::InputState::keeping_token_in(
        home.root().join("portal").join("remote-desktop.token"),
    );
    let mut tools = zeta_tools::registry_sharing(input.clone());
    for tool in zeta_elements::Elements::new(zeta_elements::Desktop::default(), input).tools() {
        tools.register(tool);
    }
    // What the keyboard types is read back from the focused field, as ui_act's acts are.
    if let Some(keyboard) = tools.get("keyboard").cloned() {
        tools.register(Arc::new(zeta_elements::typed::TypedReadBack::new(
            keyboard,
            zeta_elements::Desktop::default(),
        )));
    }
    tools.register(Arc::new(memory::MemorySave(memory.clone())));
    tools.register(Arc::new(memory::MemorySearch(memory.clone())));
    tools.register(Arc::new(schedule::ScheduleTask(scheduler.clone())));
    tools.register(Arc::new(schedule::ListScheduled(scheduler)));
    tools.register(Arc::new(zeta_tools::settings::UpdateSettings {
        file: home.settings_file(),
    }));
    // The skills: Zeta's own and the person's, read again when their folder changes; a
    // model reads one with the `skill` tool.
    let skills = skills(home);
    tools.register(Arc::new(zeta_skills::tool::SkillTool::new(skills.clone())));
    // ZETA_RECIPES=off offers no skills (for measuring what they buy).
    let skills_on = std::env::var("ZETA_RECIPES").map_or(true, |v| v != "off");
    let knowledge = skills_on.then(|| skills_note(home, skills.clone()));
    let models = SettingsModels::new(SecretStore::for_home(home.root())).with_local_server(local);
    let snapshot_dir = workdir.clone();
    let agent = AgentLoop::new(models, tools, home.souls_dir(), workdir);
    let agent = match knowledge {
        Some(knowledge) => agent.with_knowledge(Arc::new(knowledge)),
        None => agent,
    };
    Ok(agent
        .with_memory(memory)
        .with_outputs_dir(home.outputs_dir())
        .with_undo(zeta_core::undo::UndoStore::in_home(home))
        .with_tool_source(mcp)
        // ZETA_CODE_ACTIONS=on offers the small model Python steps (measured in
        // benches/everyday; off by default).
        .with_code_actions(std::env::var("ZETA_CODE_ACTIONS").is_ok_and(|v| v == "on"))
        // ZETA_HELP_OFF=second-way,ask-first,… turns answer checks and first-turn notes off
        // by name (measured in benches/everyday; all on by default).
        .with_help_off(
            std::env::var("ZETA_HELP_OFF")
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect(),
        )
        .with_environment(Arc::new(move || environment::snapshot(&snapshot_dir)))
        // The windows on screen when a task starts: the one its request names.
        .with_on_screen(Arc::new(|| {
            zeta_tools::windows::windows()
                .into_iter()
                .map(|w| ShownWindow {
                    title: w.title,
                    app: w.app,
                })
                .collect()
        }))
        .with_confinement(Confinement {
            zeta_home: home.root().to_path_buf(),
            enforced: confine::support() == confine::Support::Available,
        }))
}
