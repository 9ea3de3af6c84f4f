//! The settings' types: what `settings.json` holds, field by field, with its defaults.
//! Reading the file (lenient, per field), environment overrides and saving live in
//! zeta-core's `settings` module.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// Max agent loop iterations per task.
    pub max_iterations: u32,
    /// Max time (ms) for one shell command before its process group is killed.
    pub command_timeout_ms: u64,
    /// Max characters kept from stdout and from stderr of one command.
    pub max_output_length: u32,
    /// The agent's persona; picks the system prompt file and the iteration limit.
    pub soul: Soul,
    pub provider: ProviderSettings,
    /// Tried in order when the primary provider fails after its retries.
    pub fallback_providers: Vec<ProviderSettings>,
    pub hotkey: HotkeySettings,
    pub voice: VoiceSettings,
    pub screenshot: ScreenshotSettings,
    pub permissions: PermissionSettings,
    /// Keeping requests within the model's window (seed 003).
    pub context: ContextSettings,
    /// Before a task ends, check the answer against what was run and seen (see `Verify`).
    pub verify: Verify,
    /// MCP servers whose tools the agent may use, each entry as the user wrote it (the
    /// format other apps use); read into typed configs by `mcp::parse_servers`, which
    /// names a bad entry while the others work.
    pub mcp_servers: BTreeMap<String, serde_json::Value>,
    /// Start Zeta, hidden in the tray, when the user logs in (an XDG autostart entry).
    pub start_with_session: bool,
    /// What is kept so a task's file changes can be undone.
    pub undo: UndoSettings,
}

/// Whether the loop checks a model's answer before the task ends: an answer given without
/// running anything is sent back once, and one verification turn compares the request
/// with what was actually done and observed. Small models need it; it costs a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum Verify {
    /// For a small model (the model says so; Zeta's own `local` one is), where it pays:
    /// after a change, or when the request asks several things; off for the others.
    Auto,
    Always,
    Never,
}

impl Settings {
    /// The iteration cap in force: the smaller of `maxIterations` and the soul's limit.
    pub fn effective_max_iterations(&self) -> u32 {
        self.max_iterations.min(self.soul.iteration_limit())
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            max_iterations: 50,
            command_timeout_ms: 30_000,
            max_output_length: 4_000,
            soul: Soul::AutomationAgent,
            provider: ProviderSettings::default(),
            fallback_providers: Vec::new(),
            hotkey: HotkeySettings::default(),
            voice: VoiceSettings::default(),
            screenshot: ScreenshotSettings::default(),
            permissions: PermissionSettings::default(),
            context: ContextSettings::default(),
            verify: Verify::Auto,
            mcp_servers: BTreeMap::new(),
            start_with_session: false,
            undo: UndoSettings::default(),
        }
    }
}

/// The originals store's budget: the oldest tasks' originals are let go first (those
/// tasks can no longer be undone, and say so).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct UndoSettings {
    /// Keep what tasks change, so they can be undone (off: nothing is kept).
    pub enabled: bool,
    /// Most megabytes of originals kept.
    pub budget_mb: u64,
    /// Days a task stays undoable.
    pub keep_days: u32,
}

impl Default for UndoSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            budget_mb: 2048,
            keep_days: 30,
        }
    }
}

/// How the conversation is kept within the model's window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct ContextSettings {
    /// Compact when a request would pass the thresholds (off: requests grow until the
    /// server refuses them).
    pub compaction: bool,
    /// Share of the window past which old tool outputs shrink.
    pub soft_ratio: f32,
    /// Share of the window past which older turns fold into a summary.
    pub hard_ratio: f32,
    /// Tool outputs longer than this many characters are compressed before they enter the
    /// history; the full text is kept on disk.
    pub large_output_chars: u32,
}

impl Default for ContextSettings {
    fn default() -> Self {
        Self {
            compaction: true,
            soft_ratio: 0.6,
            hard_ratio: 0.9,
            large_output_chars: 2000,
        }
    }
}

/// Whether tool calls run, ask first, or are refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct PermissionSettings {
    pub mode: PermissionMode,
    /// Per tool, by name: allow, ask or deny. Overrides the mode.
    pub tools: BTreeMap<String, ToolPermission>,
    /// Per soul, then per tool: overrides `tools` while that soul runs the task.
    pub souls: BTreeMap<Soul, BTreeMap<String, ToolPermission>>,
    /// An unanswered request counts as a deny after this many seconds.
    pub approval_timeout_secs: u32,
    /// Per tool, by name: most calls per task and per session.
    pub rate_limits: BTreeMap<String, RateLimit>,
    /// The limits for tools without their own.
    pub default_rate_limit: DefaultRateLimit,
    /// What the user chose to "Always allow": a tool, or for the shell one program.
    /// Never more than the mode's ask (see `policy::allowance`).
    pub always_allow: Vec<Allowance>,
}

impl Default for PermissionSettings {
    fn default() -> Self {
        Self {
            mode: PermissionMode::Ask,
            tools: Default::default(),
            souls: Default::default(),
            approval_timeout_secs: 120,
            rate_limits: Default::default(),
            default_rate_limit: Default::default(),
            always_allow: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    Jpeg,
    Png,
}

/// How screenshots are sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct ScreenshotSettings {
    /// Longest side of the image sent, in pixels (the screen is downscaled to fit).
    pub max_side: u32,
    pub format: ImageFormat,
    /// JPEG quality, 1–100.
    pub quality: u8,
    /// Attach a fresh screenshot after each mouse or keyboard action.
    pub after_action: bool,
}

impl Default for ScreenshotSettings {
    fn default() -> Self {
        Self {
            max_side: 1280,
            format: ImageFormat::Jpeg,
            quality: 80,
            after_action: false,
        }
    }
}

/// Personas from seed 001, each with its own iteration limit.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, specta::Type,
)]
#[serde(rename_all = "snake_case")]
pub enum Soul {
    SafeAssistant,
    SystemAdmin,
    AutomationAgent,
    ResearchAgent,
}

impl Soul {
    /// The soul's own iteration cap (seed 001).
    pub fn iteration_limit(self) -> u32 {
        match self {
            Soul::SafeAssistant => 10,
            Soul::SystemAdmin => 20,
            Soul::AutomationAgent => 50,
            Soul::ResearchAgent => 15,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// No provider configured yet.
    None,
    Openai,
    Anthropic,
    Ollama,
    Local,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Auto,
    Tools,
    Json,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct ProviderSettings {
    pub kind: ProviderKind,
    /// Endpoint root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434`.
    pub base_url: String,
    pub model: String,
    pub protocol: Protocol,
    /// Stream responses (text appears as it is generated).
    pub stream: bool,
    /// Longest silence from the server before the request counts as failed.
    pub idle_timeout_ms: u64,
    /// Attempts per request, the first included, before the next provider is tried.
    pub max_attempts: u32,
    /// The model's context window in tokens.
    pub context_window: u32,
    /// Longest one reply may take from request to its end, streamed or not. A server that
    /// keeps sending without ending is stopped here (not retried).
    pub reply_timeout_secs: u32,
    /// Largest one reply may be, in bytes of the response body. Past it the reply is
    /// stopped (not retried); no real reply comes near the default.
    pub max_reply_bytes: u64,
    /// Zeta's own model (`local` without a baseUrl): how long its server stays loaded after
    /// the last request when no Zeta window holds it, so that the next `zeta run` does not
    /// load the model again. 0 stops it with each command.
    pub keep_warm_secs: u32,
}

impl Default for ProviderSettings {
    fn default() -> Self {
        Self {
            kind: ProviderKind::None,
            base_url: String::new(),
            model: String::new(),
            protocol: Protocol::Auto,
            stream: true,
            idle_timeout_ms: 120_000,
            max_attempts: 4,
            context_window: 32_768,
            reply_timeout_secs: 900,
            max_reply_bytes: 4 * 1024 * 1024,
            keep_warm_secs: 600,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum HotkeyMode {
    /// Record while the key is held.
    Hold,
    /// First press starts, second press stops.
    Toggle,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct HotkeySettings {
    pub push_to_talk: String,
    pub mode: HotkeyMode,
}

impl Default for HotkeySettings {
    fn default() -> Self {
        Self {
            push_to_talk: "Ctrl+Alt+Space".into(),
            mode: HotkeyMode::Hold,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct VoiceSettings {
    /// File name under `$ZETA_HOME/models`, or an absolute path.
    pub model: String,
    /// ISO 639-1 code, or `auto`.
    pub language: String,
    /// Input device name; `None` uses the system default.
    pub input_device: Option<String>,
    /// Longest recording kept, in seconds.
    pub max_recording_secs: u32,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        Self {
            model: "ggml-base.bin".into(),
            language: "en".into(),
            input_device: None,
            max_recording_secs: 60,
        }
    }
}

/// One thing wrong with the settings file, named by its JSON path (`provider.baseUrl`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
pub struct SettingsProblem {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for SettingsProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "settings field `{}`: {}", self.field, self.message)
    }
}

/// The global mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum PermissionMode {
    /// Side-effecting calls ask first (the default).
    Ask,
    /// Everything runs without asking (blocked commands still never run).
    Auto,
    /// Side-effecting calls are refused.
    ReadOnly,
}

/// A per-tool setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "lowercase")]
pub enum ToolPermission {
    Allow,
    Ask,
    Deny,
}

/// The limits for one tool. A missing number falls back to `permissions.defaultRateLimit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct RateLimit {
    pub per_task: Option<u32>,
    pub per_session: Option<u32>,
}

/// The limits that apply when a tool has none of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct DefaultRateLimit {
    pub per_task: u32,
    pub per_session: u32,
}

impl Default for DefaultRateLimit {
    fn default() -> Self {
        Self {
            per_task: 60,
            per_session: 1000,
        }
    }
}

/// One standing approval, as stored under `permissions.alwaysAllow` in settings.json.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Allowance {
    /// The tool's name (`shell`, `write_file`…).
    pub tool: String,
    /// For the shell: the program the command runs (`git`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[specta(optional)]
    pub program: Option<String>,
}

impl Allowance {
    /// "shell: git", "write_file".
    pub fn describe(&self) -> String {
        match &self.program {
            Some(program) => format!("{}: {program}", self.tool),
            None => self.tool.clone(),
        }
    }
}
