//! `$ZETA_HOME/settings.json`: the typed settings, their defaults, and a lenient loader.
//!
//! The loader never fails and never rewrites the user's file. Each field is checked on its
//! own (its JSON type, then its allowed range). A bad field is reported by name and replaced
//! by its default, and every valid field is kept. A missing file is created with the defaults.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::error::CoreError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export)]
pub struct Settings {
    /// Max agent loop iterations per task.
    pub max_iterations: u32,
    /// Max time (ms) for one shell command before its process group is killed.
    #[ts(type = "number")]
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
}

/// Whether the loop checks a model's answer before the task ends: an answer given without
/// running anything is sent back once, and one verification turn compares the request
/// with what was actually done and observed. Small models need it; it costs a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Verify {
    /// On for the `local` provider, off for the others.
    Auto,
    Always,
    Never,
}

impl Settings {
    /// Whether `verify` is in force for this task's provider.
    pub fn verifies(&self) -> bool {
        match self.verify {
            Verify::Always => true,
            Verify::Never => false,
            Verify::Auto => self.provider.kind == ProviderKind::Local,
        }
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
        }
    }
}

/// How the conversation is kept within the model's window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct PermissionSettings {
    pub mode: crate::policy::PermissionMode,
    /// Per tool, by name: allow, ask or deny. Overrides the mode.
    pub tools: std::collections::BTreeMap<String, crate::policy::ToolPermission>,
    /// Per soul, then per tool: overrides `tools` while that soul runs the task.
    pub souls: std::collections::BTreeMap<
        Soul,
        std::collections::BTreeMap<String, crate::policy::ToolPermission>,
    >,
    /// An unanswered request counts as a deny after this many seconds.
    pub approval_timeout_secs: u32,
    /// Per tool, by name: most calls per task and per session.
    pub rate_limits: std::collections::BTreeMap<String, crate::policy::RateLimit>,
    /// The limits for tools without their own.
    pub default_rate_limit: crate::policy::DefaultRateLimit,
    /// What the user chose to "Always allow": a tool, or for the shell one program.
    /// Never more than the mode's ask (see `policy::allowance`).
    pub always_allow: Vec<crate::policy::Allowance>,
}

impl Default for PermissionSettings {
    fn default() -> Self {
        Self {
            mode: crate::policy::PermissionMode::Ask,
            tools: Default::default(),
            souls: Default::default(),
            approval_timeout_secs: 120,
            rate_limits: Default::default(),
            default_rate_limit: Default::default(),
            always_allow: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    Jpeg,
    Png,
}

/// How screenshots are sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// No provider configured yet.
    None,
    Openai,
    Anthropic,
    Ollama,
    Local,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Auto,
    Tools,
    Json,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
    #[ts(type = "number")]
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
    #[ts(type = "number")]
    pub max_reply_bytes: u64,
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
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum HotkeyMode {
    /// Record while the key is held.
    Hold,
    /// First press starts, second press stops.
    Toggle,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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

/// The largest settings file read (a real one is a few kilobytes).
pub const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

/// One thing wrong with the settings file, named by its JSON path (`provider.baseUrl`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SettingsProblem {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for SettingsProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "settings field `{}`: {}", self.field, self.message)
    }
}

/// The settings in force and what was wrong with the file they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSettings {
    pub settings: Settings,
    pub problems: Vec<SettingsProblem>,
    /// True when the file did not exist and was written with the defaults.
    pub created: bool,
}

impl Settings {
    /// Reads `path`, creating it with the defaults when it does not exist. Never fails on
    /// content: problems are returned beside the settings. Fails only on I/O errors.
    /// The `ZETA_LLM_*` environment variables override the provider section.
    pub fn load_or_create(path: &Path) -> Result<LoadedSettings, CoreError> {
        let mut loaded = Self::load_file(path)?;
        let env = |name: &str| std::env::var(name).ok();
        loaded
            .settings
            .apply_env_overrides(env, &mut loaded.problems);
        Ok(loaded)
    }

    fn load_file(path: &Path) -> Result<LoadedSettings, CoreError> {
        if let Some(loaded) = Self::read_file(path)? {
            return Ok(loaded);
        }
        let defaults = Settings::default();
        write_new_file(path, &defaults)?;
        Ok(LoadedSettings {
            settings: defaults,
            problems: Vec::new(),
            created: true,
        })
    }

    /// Reads `path` as `load_or_create` does, without creating it (`None` when it does not
    /// exist) and without the environment's overrides. A file that is too large, not a
    /// regular file or not UTF-8 gives the defaults with a problem, like one that is not
    /// JSON; the file is left as it is.
    pub fn read_file(path: &Path) -> Result<Option<LoadedSettings>, CoreError> {
        use crate::bounded::{read_text, BoundedReadError as E};
        let unusable = |why: String| {
            let mut loaded = Self::from_json_text("{}");
            loaded.problems.insert(
                0,
                SettingsProblem {
                    field: "(file)".into(),
                    message: format!("{why}; using defaults, the file is left as it is"),
                },
            );
            Ok(Some(loaded))
        };
        match read_text(path, MAX_SETTINGS_BYTES) {
            Ok(text) => Ok(Some(Self::from_json_text(&text))),
            Err(E::NotFound) => Ok(None),
            Err(e @ (E::NotAFile | E::TooLarge { .. } | E::NotUtf8 { .. })) => {
                unusable(format!("{} cannot be used: {e}", path.display()))
            }
            Err(E::Io(source)) => Err(CoreError::Io {
                what: "read settings file",
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Parses settings text leniently: see the module doc.
    pub fn from_json_text(text: &str) -> LoadedSettings {
        let mut problems = Vec::new();
        let user = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(other) => {
                problems.push(SettingsProblem {
                    field: "(file)".into(),
                    message: format!(
                        "expected a JSON object at the top level, found {}; using defaults",
                        json_kind(&other)
                    ),
                });
                Map::new()
            }
            Err(e) => {
                problems.push(SettingsProblem {
                    field: "(file)".into(),
                    message: format!(
                        "not valid JSON (line {}, column {}: {}); using defaults, the file is left as it is",
                        e.line(),
                        e.column(),
                        e
                    ),
                });
                Map::new()
            }
        };
        let mut accepted = defaults_value();
        merge_fields(&mut accepted, &user, "", &mut problems);
        let mut settings = match serde_json::from_value::<Settings>(accepted.clone()) {
            Ok(s) => s,
            // merge_fields only accepts values that deserialize; this is a safety net.
            Err(e) => {
                problems.push(SettingsProblem {
                    field: "(file)".into(),
                    message: format!("{e}; using defaults"),
                });
                Settings::default()
            }
        };
        settings.reset_out_of_range(&mut problems);
        LoadedSettings {
            settings,
            problems,
            created: false,
        }
    }

    /// Checks value ranges; each bad field is reported and set back to its default.
    fn reset_out_of_range(&mut self, problems: &mut Vec<SettingsProblem>) {
        let d = Settings::default();
        let mut bad = |field: &str, message: String| {
            problems.push(SettingsProblem {
                field: field.into(),
                message,
            })
        };
        if !(1..=1000).contains(&self.max_iterations) {
            bad(
                "maxIterations",
                format!(
                    "{} is outside 1..=1000; using {}",
                    self.max_iterations, d.max_iterations
                ),
            );
            self.max_iterations = d.max_iterations;
        }
        if !(100..=86_400_000).contains(&self.command_timeout_ms) {
            bad(
                "commandTimeoutMs",
                format!(
                    "{} is outside 100..=86400000 ms; using {}",
                    self.command_timeout_ms, d.command_timeout_ms
                ),
            );
            self.command_timeout_ms = d.command_timeout_ms;
        }
        if !(100..=10_000_000).contains(&self.max_output_length) {
            bad(
                "maxOutputLength",
                format!(
                    "{} is outside 100..=10000000; using {}",
                    self.max_output_length, d.max_output_length
                ),
            );
            self.max_output_length = d.max_output_length;
        }
        let url = self.provider.base_url.trim();
        if !url.is_empty() && !(url.starts_with("http://") || url.starts_with("https://")) {
            bad(
                "provider.baseUrl",
                format!("{url:?} must start with http:// or https://; using none"),
            );
            self.provider.base_url = d.provider.base_url.clone();
        }
        if self.hotkey.push_to_talk.trim().is_empty() {
            bad(
                "hotkey.pushToTalk",
                format!("must not be empty; using {}", d.hotkey.push_to_talk),
            );
            self.hotkey.push_to_talk = d.hotkey.push_to_talk.clone();
        }
        if !(64..=8192).contains(&self.screenshot.max_side) {
            bad(
                "screenshot.maxSide",
                format!(
                    "{} is outside 64..=8192; using {}",
                    self.screenshot.max_side, d.screenshot.max_side
                ),
            );
            self.screenshot.max_side = d.screenshot.max_side;
        }
        if !(1..=100).contains(&self.screenshot.quality) {
            bad(
                "screenshot.quality",
                format!(
                    "{} is outside 1..=100; using {}",
                    self.screenshot.quality, d.screenshot.quality
                ),
            );
            self.screenshot.quality = d.screenshot.quality;
        }
        if !(1..=86_400).contains(&self.permissions.approval_timeout_secs) {
            bad(
                "permissions.approvalTimeoutSecs",
                format!(
                    "{} is outside 1..=86400 s; using {}",
                    self.permissions.approval_timeout_secs, d.permissions.approval_timeout_secs
                ),
            );
            self.permissions.approval_timeout_secs = d.permissions.approval_timeout_secs;
        }
        let limit = self.permissions.default_rate_limit;
        if limit.per_task == 0 || limit.per_session < limit.per_task {
            bad(
                "permissions.defaultRateLimit",
                format!(
                    "perTask {} / perSession {} must be at least 1 and perSession at least perTask; using {} / {}",
                    limit.per_task,
                    limit.per_session,
                    d.permissions.default_rate_limit.per_task,
                    d.permissions.default_rate_limit.per_session
                ),
            );
            self.permissions.default_rate_limit = d.permissions.default_rate_limit;
        }
        if !(1024..=4_000_000).contains(&self.provider.context_window) {
            bad(
                "provider.contextWindow",
                format!(
                    "{} is outside 1024..=4000000 tokens; using {}",
                    self.provider.context_window, d.provider.context_window
                ),
            );
            self.provider.context_window = d.provider.context_window;
        }
        if !(1..=86_400).contains(&self.provider.reply_timeout_secs) {
            bad(
                "provider.replyTimeoutSecs",
                format!(
                    "{} is outside 1..=86400 seconds; using {}",
                    self.provider.reply_timeout_secs, d.provider.reply_timeout_secs
                ),
            );
            self.provider.reply_timeout_secs = d.provider.reply_timeout_secs;
        }
        if !(1024..=1024 * 1024 * 1024).contains(&self.provider.max_reply_bytes) {
            bad(
                "provider.maxReplyBytes",
                format!(
                    "{} is outside 1024..=1073741824 bytes; using {}",
                    self.provider.max_reply_bytes, d.provider.max_reply_bytes
                ),
            );
            self.provider.max_reply_bytes = d.provider.max_reply_bytes;
        }
        let c = &self.context;
        if !(0.1..=1.0).contains(&c.soft_ratio)
            || !(0.1..=1.0).contains(&c.hard_ratio)
            || c.soft_ratio >= c.hard_ratio
        {
            bad(
                "context",
                format!(
                    "softRatio {} and hardRatio {} must be within 0.1..=1.0 with softRatio below hardRatio; using {} and {}",
                    c.soft_ratio, c.hard_ratio, d.context.soft_ratio, d.context.hard_ratio
                ),
            );
            self.context.soft_ratio = d.context.soft_ratio;
            self.context.hard_ratio = d.context.hard_ratio;
        }
        if !(200..=1_000_000).contains(&self.context.large_output_chars) {
            bad(
                "context.largeOutputChars",
                format!(
                    "{} is outside 200..=1000000; using {}",
                    self.context.large_output_chars, d.context.large_output_chars
                ),
            );
            self.context.large_output_chars = d.context.large_output_chars;
        }
        if !(1..=600).contains(&self.voice.max_recording_secs) {
            bad(
                "voice.maxRecordingSecs",
                format!(
                    "{} is outside 1..=600; using {}",
                    self.voice.max_recording_secs, d.voice.max_recording_secs
                ),
            );
            self.voice.max_recording_secs = d.voice.max_recording_secs;
        }
    }

    /// Applies `ZETA_LLM_PROVIDER`, `_BASE_URL`, `_MODEL` and `_PROTOCOL` from `env`.
    /// A bad value is reported and ignored.
    pub fn apply_env_overrides(
        &mut self,
        env: impl Fn(&str) -> Option<String>,
        problems: &mut Vec<SettingsProblem>,
    ) {
        let mut parse = |name: &str, field: &str, value: String| -> Option<Value> {
            let value = Value::String(value);
            let mut candidate = serde_json::to_value(&self.provider).ok()?;
            candidate[field] = value.clone();
            match serde_json::from_value::<ProviderSettings>(candidate) {
                Ok(_) => Some(value),
                Err(e) => {
                    problems.push(SettingsProblem {
                        field: name.to_string(),
                        message: format!(
                            "{value} is not valid ({}); ignored",
                            strip_position(&e.to_string())
                        ),
                    });
                    None
                }
            }
        };
        let mut provider = serde_json::to_value(&self.provider).unwrap_or(Value::Null);
        for (name, field) in [
            ("ZETA_LLM_PROVIDER", "kind"),
            ("ZETA_LLM_BASE_URL", "baseUrl"),
            ("ZETA_LLM_MODEL", "model"),
            ("ZETA_LLM_PROTOCOL", "protocol"),
        ] {
            if let Some(value) = env(name).filter(|v| !v.is_empty()) {
                if let Some(value) = parse(name, field, value) {
                    provider[field] = value;
                }
            }
        }
        if let Ok(p) = serde_json::from_value(provider) {
            self.provider = p;
        }
    }

    /// The iteration cap in force: the smaller of `maxIterations` and the soul's limit.
    pub fn effective_max_iterations(&self) -> u32 {
        self.max_iterations.min(self.soul.iteration_limit())
    }
}

fn defaults_value() -> Value {
    serde_json::to_value(Settings::default()).unwrap_or(Value::Object(Map::new()))
}

/// Copies each field of `user` into `accepted` if the whole still deserializes; otherwise
/// records a problem naming the field. Objects are walked field by field.
fn merge_fields(
    accepted: &mut Value,
    user: &Map<String, Value>,
    prefix: &str,
    problems: &mut Vec<SettingsProblem>,
) {
    for (key, value) in user {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        let Some(slot) = lookup(accepted, prefix).and_then(|o| o.get(key)).cloned() else {
            problems.push(SettingsProblem {
                field: path,
                message: "unknown field (ignored)".into(),
            });
            continue;
        };
        // A section is walked field by field; a map (empty in the defaults) is one value.
        if let (Value::Object(fields), Value::Object(inner)) = (&slot, value) {
            if !fields.is_empty() {
                merge_fields(accepted, inner, &path, problems);
                continue;
            }
        }
        let mut candidate = accepted.clone();
        if let Some(obj) = lookup_mut(&mut candidate, prefix) {
            obj.insert(key.clone(), value.clone());
        }
        match serde_json::from_value::<Settings>(candidate.clone()) {
            Ok(_) => *accepted = candidate,
            Err(e) => problems.push(SettingsProblem {
                field: path,
                message: format!(
                    "{} is not valid here ({}); using the default {}",
                    value,
                    strip_position(&e.to_string()),
                    slot
                ),
            }),
        }
    }
}

fn lookup<'a>(root: &'a Value, path: &str) -> Option<&'a Map<String, Value>> {
    path.split('.')
        .filter(|p| !p.is_empty())
        .try_fold(root, |v, part| v.get(part))?
        .as_object()
}

fn lookup_mut<'a>(root: &'a mut Value, path: &str) -> Option<&'a mut Map<String, Value>> {
    path.split('.')
        .filter(|p| !p.is_empty())
        .try_fold(root, |v, part| v.get_mut(part))?
        .as_object_mut()
}

fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Writes the defaults to a file that does not exist yet; an existing file is never replaced.
impl Settings {
    /// Checks `text` as a whole settings file: `Ok` with the settings when every field is
    /// valid, else every problem by field. Used before saving what the user edited.
    pub fn validate_json_text(text: &str) -> Result<Settings, Vec<SettingsProblem>> {
        let loaded = Self::from_json_text(text);
        if loaded.problems.is_empty() {
            Ok(loaded.settings)
        } else {
            Err(loaded.problems)
        }
    }

    /// Writes the settings to `path` through a temporary file renamed into place, so a
    /// reader never sees half a file. Only the user's explicit save calls this.
    pub fn save(&self, path: &Path) -> Result<(), CoreError> {
        let io_err = |what, source| CoreError::Io {
            what,
            path: path.to_path_buf(),
            source,
        };
        let text = serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into());
        let tmp = path.with_extension("json.saving");
        crate::home::write_private(&tmp, format!("{text}\n").as_bytes())
            .map_err(|e| io_err("write settings file", e))?;
        std::fs::rename(&tmp, path).map_err(|e| io_err("replace settings file", e))
    }
}

/// Adds `allowance` to `permissions.alwaysAllow` in the file at `path` (created when
/// missing), leaving every other part of the file exactly as the user wrote it. A file
/// that is not a JSON object is not touched: the error says so.
pub fn add_always_allow(
    path: &Path,
    allowance: &crate::policy::Allowance,
) -> Result<(), CoreError> {
    let syntax = |message: String| CoreError::SettingsSyntax {
        path: path.to_path_buf(),
        message,
    };
    let text = match crate::bounded::read_text(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(crate::bounded::BoundedReadError::NotFound) => "{}".into(),
        Err(e) => {
            return Err(syntax(format!(
                "could not read it to add an allowance: {e}"
            )))
        }
    };
    let mut root: Value =
        serde_json::from_str(&text).map_err(|e| syntax(strip_position(&e.to_string()).into()))?;
    let Some(object) = root.as_object_mut() else {
        return Err(syntax("it is not a JSON object".into()));
    };
    let permissions = object
        .entry("permissions")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(permissions) = permissions.as_object_mut() else {
        return Err(syntax("`permissions` is not an object".into()));
    };
    let list = permissions
        .entry("alwaysAllow")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else {
        return Err(syntax("`permissions.alwaysAllow` is not a list".into()));
    };
    let entry = serde_json::to_value(allowance).unwrap_or(Value::Null);
    if list.contains(&entry) {
        return Ok(());
    }
    list.push(entry);
    let io_err = |what, source| CoreError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(&root).unwrap_or_else(|_| text.clone());
    let tmp = path.with_extension("json.saving");
    crate::home::write_private(&tmp, format!("{text}\n").as_bytes())
        .map_err(|e| io_err("write settings file", e))?;
    std::fs::rename(&tmp, path).map_err(|e| io_err("replace settings file", e))
}

fn write_new_file(path: &Path, settings: &Settings) -> Result<(), CoreError> {
    use std::io::Write;
    let io_err = |what, source| CoreError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(settings).unwrap_or_else(|_| "{}".into());
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(f) => f,
        // Another process created it between our read and now: leave theirs alone.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) => return Err(io_err("create settings file", e)),
    };
    file.write_all(text.as_bytes())
        .and_then(|_| file.write_all(b"\n"))
        .map_err(|e| io_err("write settings file", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_fields_are_named_and_valid_fields_kept() {
        let loaded = Settings::from_json_text(
            r#"{"maxIterations": "many", "commandTimeoutMs": 5000,
                "provider": {"kind": "openai", "baseUrl": 7, "model": "gpt"},
                "colour": "blue", "maxOutputLength": 0}"#,
        );
        let s = &loaded.settings;
        assert_eq!(s.max_iterations, 50);
        assert_eq!(s.command_timeout_ms, 5000);
        assert_eq!(s.max_output_length, 4000);
        assert_eq!(s.provider.kind, ProviderKind::Openai);
        assert_eq!(s.provider.model, "gpt");
        assert_eq!(s.provider.base_url, "");
        let fields: Vec<&str> = loaded.problems.iter().map(|p| p.field.as_str()).collect();
        assert!(fields.contains(&"maxIterations"), "{fields:?}");
        assert!(fields.contains(&"provider.baseUrl"), "{fields:?}");
        assert!(fields.contains(&"colour"), "{fields:?}");
        assert!(fields.contains(&"maxOutputLength"), "{fields:?}");
        assert_eq!(loaded.problems.len(), 4, "{:?}", loaded.problems);
    }

    #[test]
    fn malformed_json_gives_defaults_and_a_located_problem() {
        let loaded = Settings::from_json_text("{\n  \"maxIterations\": 5,\n  oops\n}");
        assert_eq!(loaded.settings, Settings::default());
        assert_eq!(loaded.problems.len(), 1);
        assert!(
            loaded.problems[0].message.contains("line 3"),
            "{:?}",
            loaded.problems
        );
    }

    #[test]
    fn unknown_enum_value_is_rejected_by_name() {
        let loaded =
            Settings::from_json_text(r#"{"soul": "pirate", "hotkey": {"mode": "toggle"}}"#);
        assert_eq!(loaded.settings.soul, Soul::AutomationAgent);
        assert_eq!(loaded.settings.hotkey.mode, HotkeyMode::Toggle);
        assert_eq!(loaded.problems.len(), 1);
        assert_eq!(loaded.problems[0].field, "soul");
        assert!(loaded.problems[0].message.contains("pirate"));
    }

    #[test]
    fn missing_file_is_created_and_existing_file_never_rewritten() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("settings.json");
        let first = Settings::load_or_create(&path).expect("load");
        assert!(first.created);
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        assert_eq!(written["maxIterations"], 50);
        assert_eq!(written["commandTimeoutMs"], 30000);
        assert_eq!(written["maxOutputLength"], 4000);

        let broken = "{ \"maxIterations\": 7, broken";
        std::fs::write(&path, broken).expect("write");
        let second = Settings::load_or_create(&path).expect("load");
        assert!(!second.created);
        assert_eq!(second.problems.len(), 1);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), broken);
    }

    #[test]
    fn environment_overrides_the_provider_and_bad_values_are_reported() {
        let mut loaded =
            Settings::from_json_text(r#"{"provider": {"kind": "ollama", "model": "m"}}"#);
        let env = |name: &str| match name {
            "ZETA_LLM_PROVIDER" => Some("openai".to_string()),
            "ZETA_LLM_BASE_URL" => Some("http://127.0.0.1:9/v1".to_string()),
            "ZETA_LLM_PROTOCOL" => Some("smoke-signals".to_string()),
            _ => None,
        };
        loaded
            .settings
            .apply_env_overrides(env, &mut loaded.problems);
        let p = &loaded.settings.provider;
        assert_eq!(p.kind, ProviderKind::Openai);
        assert_eq!(p.base_url, "http://127.0.0.1:9/v1");
        assert_eq!(p.model, "m");
        assert_eq!(p.protocol, Protocol::Auto);
        assert_eq!(loaded.problems.len(), 1);
        assert_eq!(loaded.problems[0].field, "ZETA_LLM_PROTOCOL");
    }

    #[test]
    fn per_tool_permissions_are_a_map() {
        let loaded = Settings::from_json_text(
            r#"{"permissions": {"mode": "auto", "tools": {"shell": "ask", "write_file": "deny"}}}"#,
        );
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        assert_eq!(loaded.settings.permissions.tools.len(), 2);
        let loaded =
            Settings::from_json_text(r#"{"permissions": {"tools": {"shell": "sometimes"}}}"#);
        assert_eq!(loaded.problems[0].field, "permissions.tools");
        assert!(loaded.settings.permissions.tools.is_empty());
    }

    #[test]
    fn rate_limits_and_soul_permissions_load() {
        let loaded = Settings::from_json_text(
            r#"{"permissions": {"rateLimits": {"shell": {"perTask": 3}},
                "defaultRateLimit": {"perTask": 5},
                "souls": {"safe_assistant": {"shell": "deny"}}}}"#,
        );
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        let p = &loaded.settings.permissions;
        assert_eq!(p.rate_limits["shell"].per_task, Some(3));
        assert_eq!(p.default_rate_limit.per_task, 5);
        assert_eq!(p.default_rate_limit.per_session, 1000);
        assert_eq!(
            p.souls[&Soul::SafeAssistant]["shell"],
            crate::policy::ToolPermission::Deny
        );
        let loaded = Settings::from_json_text(
            r#"{"permissions": {"defaultRateLimit": {"perTask": 0}, "souls": {"pirate": {}}}}"#,
        );
        let fields: Vec<_> = loaded.problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            ["permissions.souls", "permissions.defaultRateLimit"]
        );
    }

    #[test]
    fn a_save_round_trips_and_validation_names_every_bad_field() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("settings.json");
        let mut s = Settings::default();
        s.provider.base_url = "http://127.0.0.1:11434".into();
        s.max_iterations = 12;
        s.save(&path).expect("save");
        let back = Settings::load_or_create(&path).expect("load");
        assert_eq!(back.settings.max_iterations, 12);
        assert_eq!(back.settings.provider.base_url, "http://127.0.0.1:11434");
        let bad = Settings::validate_json_text(
            r#"{"provider": {"baseUrl": "ftp://x"}, "maxIterations": 0}"#,
        )
        .expect_err("invalid");
        let fields: Vec<_> = bad.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["maxIterations", "provider.baseUrl"]);
    }

    #[test]
    fn soul_caps_iterations() {
        let loaded = Settings::from_json_text(r#"{"soul": "safe_assistant", "maxIterations": 40}"#);
        assert_eq!(loaded.settings.effective_max_iterations(), 10);
        let loaded = Settings::from_json_text(r#"{"maxIterations": 7}"#);
        assert_eq!(loaded.settings.effective_max_iterations(), 7);
    }
}
