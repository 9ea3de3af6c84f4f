//! The permission decision for one tool call: allowed, asked, or denied, from the global
//! mode, the per-tool setting and whether the tool has side effects. Pure functions.
//!
//! The per-tool setting in force comes, most specific first, from the user's setting for
//! the task's soul (`permissions.souls`), the user's setting for the tool
//! (`permissions.tools`), then the soul's built-in default.

pub use zeta_protocol::settings::{PermissionMode, ToolPermission};

use crate::settings::{PermissionSettings, Soul};

/// What each soul asks of its tools before the user says otherwise (seed 001: tools are
/// configured per soul). The careful souls ask even in `auto` mode.
fn soul_default(soul: Soul, tool: &str) -> Option<ToolPermission> {
    use ToolPermission::*;
    match (soul, tool) {
        (
            Soul::SafeAssistant,
            "shell" | "run_code" | "write_file" | "http_request" | "open_url" | "open_app"
            | "mouse" | "keyboard",
        ) => Some(Ask),
        (Soul::ResearchAgent, "mouse" | "keyboard") => Some(Deny),
        (Soul::ResearchAgent, "shell" | "run_code" | "write_file") => Some(Ask),
        _ => None,
    }
}

/// The per-tool setting in force for `tool` under `soul` (see the module doc).
pub fn tool_permission(
    settings: &PermissionSettings,
    soul: Soul,
    tool: &str,
) -> Option<ToolPermission> {
    settings
        .souls
        .get(&soul)
        .and_then(|tools| tools.get(tool))
        .or_else(|| settings.tools.get(tool))
        .copied()
        .or_else(|| soul_default(soul, tool))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Ask,
    Deny(String),
}

pub fn decide(
    mode: PermissionMode,
    tool: Option<ToolPermission>,
    side_effects: bool,
    name: &str,
) -> Decision {
    if !side_effects {
        // Read-only tools never ask; only an explicit deny stops them.
        return match tool {
            Some(ToolPermission::Deny) => Decision::Deny(format!(
                "`{name}` is set to deny in the permission settings"
            )),
            _ => Decision::Allow,
        };
    }
    if mode == PermissionMode::ReadOnly {
        return Decision::Deny(format!(
            "Zeta is in read-only mode, and `{name}` can change things"
        ));
    }
    match (tool, mode) {
        (Some(ToolPermission::Deny), _) => Decision::Deny(format!(
            "`{name}` is set to deny in the permission settings"
        )),
        (Some(ToolPermission::Allow), _) => Decision::Allow,
        (Some(ToolPermission::Ask), _) => Decision::Ask,
        (None, PermissionMode::Auto) => Decision::Allow,
        (None, _) => Decision::Ask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Decision::*;
    use PermissionMode as M;
    use ToolPermission as T;

    #[test]
    fn the_decision_table() {
        assert_eq!(decide(M::Ask, None, true, "shell"), Ask);
        assert_eq!(decide(M::Ask, None, false, "read_file"), Allow);
        assert_eq!(
            decide(M::Ask, Some(T::Ask), false, "read_file"),
            Allow,
            "read-only tools never ask"
        );
        assert!(matches!(
            decide(M::Ask, Some(T::Deny), false, "read_file"),
            Deny(_)
        ));
        assert_eq!(decide(M::Ask, Some(T::Allow), true, "shell"), Allow);
        assert_eq!(decide(M::Auto, None, true, "shell"), Allow);
        assert_eq!(decide(M::Auto, Some(T::Ask), true, "shell"), Ask);
        assert!(matches!(
            decide(M::Auto, Some(T::Deny), true, "shell"),
            Deny(_)
        ));
        assert!(matches!(
            decide(M::ReadOnly, Some(T::Allow), true, "shell"),
            Deny(_)
        ));
        assert_eq!(decide(M::ReadOnly, None, false, "screenshot"), Allow);
    }

    #[test]
    fn the_setting_in_force_goes_from_soul_override_to_tool_to_soul_default() {
        let mut s = PermissionSettings::default();
        assert_eq!(tool_permission(&s, Soul::AutomationAgent, "shell"), None);
        assert_eq!(
            tool_permission(&s, Soul::SafeAssistant, "shell"),
            Some(T::Ask)
        );
        assert_eq!(
            tool_permission(&s, Soul::ResearchAgent, "mouse"),
            Some(T::Deny)
        );
        s.tools.insert("shell".into(), T::Allow);
        assert_eq!(
            tool_permission(&s, Soul::SafeAssistant, "shell"),
            Some(T::Allow)
        );
        s.souls
            .insert(Soul::SafeAssistant, [("shell".to_string(), T::Deny)].into());
        assert_eq!(
            tool_permission(&s, Soul::SafeAssistant, "shell"),
            Some(T::Deny)
        );
        assert_eq!(
            tool_permission(&s, Soul::SystemAdmin, "shell"),
            Some(T::Allow)
        );
    }
}
