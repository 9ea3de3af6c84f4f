//! Zeta's own model warmed in the background, when it is the provider: at start, and when
//! onboarding finishes (the model just chosen). The opening every task starts with is
//! evaluated before anyone asks (`AgentLoop::warm`; the server restores what it kept
//! first, so a warm start costs little), and the first question does not pay for it. It
//! waits a moment after the start, so the window and the tray show first.

use std::sync::Arc;
use std::time::Instant;

use zeta_app::agent::{configured_agent, user_workdir};
use zeta_core::settings::ProviderKind;
use zeta_core::{Settings, ZetaHome};
use zeta_llm::LocalServer;
use zeta_mcp::McpManager;

/// How long after the start the warm-up waits.
const AFTER_START: std::time::Duration = std::time::Duration::from_secs(3);

/// Starts the warm-up when `settings` choose Zeta's own model; does nothing otherwise.
pub fn in_background(
    home: &ZetaHome,
    local: &Arc<LocalServer>,
    mcp: &Arc<McpManager>,
    settings: Settings,
) {
    if settings.provider.kind != ProviderKind::Local {
        return;
    }
    let agent = match configured_agent(home, Arc::clone(local), Arc::clone(mcp), user_workdir(home))
    {
        Ok(agent) => agent,
        Err(e) => {
            tracing::warn!("not warming the model: {e}");
            return;
        }
    };
    tauri::async_runtime::spawn(async move {
        // After the window and the tray: the server's start and the evaluation take both
        // cores for seconds, which the window's first paint should not wait behind.
        tokio::time::sleep(AFTER_START).await;
        let started = Instant::now();
        match agent.warm(settings, true).await {
            Ok(()) => tracing::info!(
                secs = started.elapsed().as_secs_f64(),
                "warmed Zeta's own model"
            ),
            Err(e) => tracing::warn!("could not warm Zeta's own model: {e}"),
        }
    });
}
