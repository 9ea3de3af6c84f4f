//! The app's long-lived handle on settings, keys and first-run onboarding, held in Tauri
//! state: the settings window reads a `SettingsView`, saves only fully valid settings,
//! stores keys in the secret store, tests a provider, and finds local model servers.

use std::sync::Arc;

use serde::Serialize;
use zeta_core::settings::{ProviderKind, ProviderSettings};
use zeta_core::{Settings, SettingsProblem, ZetaHome};
use zeta_llm::config::{key_name, key_names};
use zeta_llm::detect::LocalEndpoint;
use zeta_llm::{LocalServer, LocalServerState, Secret, SecretStore};

/// What the settings window shows.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SettingsView {
    /// The settings in force from the file (environment overrides not applied).
    pub settings: Settings,
    /// What was wrong with the file as it is on disk.
    pub problems: Vec<SettingsProblem>,
    pub path: String,
    /// Where API keys are kept, in words.
    pub key_store: String,
    /// Why no system keyring is used, as the keyring library said it (for "Details");
    /// `None` when keys go to the system keyring.
    pub key_store_detail: Option<String>,
    /// Per configured provider: whether a key is stored for it.
    pub keys: Vec<KeyState>,
    /// True on a fresh home until onboarding is finished or skipped.
    pub needs_onboarding: bool,
    /// Zeta's own model server (the `local` provider).
    pub local_server: LocalServerState,
    /// GGUF files in `$ZETA_HOME/models`, for the local provider's model choice.
    pub local_models: Vec<String>,
    /// Whisper ggml files in `$ZETA_HOME/models`, for the voice model choice.
    pub voice_models: Vec<String>,
    /// The microphones cpal finds (`voice.inputDevice` takes the id).
    pub input_devices: Vec<InputDevice>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct InputDevice {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KeyState {
    /// `<kind>@<baseUrl>`, the name a key for exactly this endpoint is stored under.
    pub provider: String,
    pub stored: bool,
}

pub struct SettingsManager {
    home: ZetaHome,
    secrets: SecretStore,
    local: Arc<LocalServer>,
    /// The settings last saved (from the window or the tray), for whoever follows them.
    saved: tokio::sync::watch::Sender<Option<zeta_core::Settings>>,
}

impl SettingsManager {
    /// The Zeta home whose settings these are.
    pub fn home(&self) -> &ZetaHome {
        &self.home
    }

    pub fn new(home: &ZetaHome, local: Arc<LocalServer>) -> Self {
        Self {
            home: home.clone(),
            secrets: SecretStore::for_home(home.root()),
            local,
            saved: tokio::sync::watch::channel(None).0,
        }
    }

    /// Each save's settings, as they were written.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<Option<zeta_core::Settings>> {
        self.saved.subscribe()
    }

    fn onboarded_marker(&self) -> std::path::PathBuf {
        self.home.onboarded_marker()
    }

    pub fn view(&self) -> Result<SettingsView, String> {
        let path = self.home.settings_file();
        let loaded = zeta_core::settings::read_file(&path)
            .map_err(|e| e.to_string())?
            .unwrap_or_else(|| zeta_core::settings::from_json_text("{}"));
        let keys = std::iter::once(&loaded.settings.provider)
            .chain(&loaded.settings.fallback_providers)
            .filter(|p| p.kind != ProviderKind::None)
            .map(|p| KeyState {
                provider: key_name(p),
                stored: self.has_key(p),
            })
            .collect();
        let models = zeta_models::ModelStore::new(self.home.models_dir());
        let needs_onboarding = !self.onboarded_marker().exists()
            && loaded.settings.provider.kind == ProviderKind::None;
        Ok(SettingsView {
            settings: loaded.settings,
            problems: loaded.problems,
            path: path.display().to_string(),
            key_store: self.secrets.backend().words(),
            key_store_detail: self.secrets.backend().detail().map(str::to_string),
            keys,
            needs_onboarding,
            local_server: self.local.state(),
            local_models: models.names(zeta_models::ModelKind::Gguf),
            voice_models: models.names(zeta_models::ModelKind::Whisper),
            input_devices: zeta_voice::capture::input_device_ids()
                .unwrap_or_default()
                .into_iter()
                .map(|(id, label)| InputDevice { id, label })
                .collect(),
        })
    }

    fn has_key(&self, p: &ProviderSettings) -> bool {
        key_names(p)
            .iter()
            .any(|name| matches!(self.secrets.get(name), Ok(Some(_))))
    }

    /// Saves `settings` when every field is valid; otherwise nothing is written and every
    /// problem comes back by field.
    pub fn save(&self, settings: serde_json::Value) -> Result<SettingsView, Vec<SettingsProblem>> {
        self.save_from(settings, "the settings window")
    }

    fn save_from(
        &self,
        mut settings: serde_json::Value,
        from: &str,
    ) -> Result<SettingsView, Vec<SettingsProblem>> {
        let fail = |message: String| {
            vec![SettingsProblem {
                field: "(file)".into(),
                message,
            }]
        };
        // A token pasted into an MCP server's env or headers goes to the keyring, not the file.
        zeta_app::mcp_secrets::keep_all_secrets(&self.secrets, &mut settings)
            .map_err(|e| fail(format!("an MCP server's secret could not be stored: {e}")))?;
        let valid = zeta_core::settings::validate_json_text(&settings.to_string())?;
        zeta_core::settings::save(&valid, &self.home.settings_file())
            .map_err(|e| fail(e.to_string()))?;
        tracing::info!("settings saved from {from}");
        super::autostart::sync(valid.start_with_session);
        self.saved.send_replace(Some(valid));
        self.view().map_err(fail)
    }

    /// Whether Zeta starts with the session, as the settings file says now.
    pub fn start_with_session(&self) -> bool {
        zeta_core::settings::read_file(&self.home.settings_file())
            .ok()
            .flatten()
            .is_some_and(|loaded| loaded.settings.start_with_session)
    }

    /// Turns the start with the session on or off (the tray's check item). The file's other
    /// entries stay as written; a file that does not validate is left alone and the
    /// problems come back, to be fixed in Settings.
    pub fn set_start_with_session(&self, on: bool) -> Result<(), String> {
        let path = self.home.settings_file();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => "{}".into(),
            Err(e) => return Err(format!("could not read {}: {e}", path.display())),
        };
        let mut value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{} is not valid JSON ({e}); fix it in Settings",
                path.display()
            )
        })?;
        let Some(object) = value.as_object_mut() else {
            return Err(format!("{} does not hold a JSON object", path.display()));
        };
        object.insert("startWithSession".into(), serde_json::Value::Bool(on));
        self.save_from(value, "the tray")
            .map(|_| ())
            .map_err(|problems| {
                problems
                    .iter()
                    .map(|p| format!("{}: {}", p.field, p.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            })
    }

    /// Stores the key for exactly this endpoint; returns where it went, in words.
    pub fn set_key(&self, provider: &ProviderSettings, key: &str) -> Result<String, String> {
        let key = key.trim();
        if key.is_empty() {
            return Err("the key is empty".into());
        }
        self.secrets
            .set(&key_name(provider), &Secret::new(key))
            .map(|backend| backend.to_string())
            .map_err(|e| e.to_string())
    }

    pub async fn test(&self, provider: &ProviderSettings) -> Result<String, String> {
        zeta_llm::detect::test_connection(provider, &self.secrets, Some(&self.local)).await
    }

    /// The models the provider's server offers, read with its stored key.
    pub async fn list_models(&self, provider: &ProviderSettings) -> Result<Vec<String>, String> {
        zeta_llm::detect::list_models(provider, &self.secrets).await
    }

    pub async fn detect(&self) -> Vec<LocalEndpoint> {
        zeta_llm::detect::local_endpoints(&zeta_llm::detect::candidates()).await
    }

    pub fn finish_onboarding(&self) -> Result<(), String> {
        zeta_protocol::home::write_private(&self.onboarded_marker(), b"onboarding finished\n")
            .map_err(|e| format!("could not record that onboarding is done: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_field_is_refused_by_name_and_nothing_is_written() {
        let dir = tempfile::tempdir().expect("dir");
        let home = ZetaHome::at(dir.path()).expect("home");
        let manager = SettingsManager::new(
            &home,
            zeta_llm::LocalServer::new(home.root(), zeta_llm::local::Launch::Child),
        );
        let mut settings = manager.view().expect("view").settings;
        settings.provider.base_url = "ftp://not-a-model-server".into();
        let value = serde_json::to_value(&settings).expect("json");
        let problems = manager.save(value).expect_err("refused");
        assert_eq!(problems[0].field, "provider.baseUrl", "{problems:?}");
        assert!(!home.settings_file().exists());
        settings.provider.base_url = "http://127.0.0.1:9/v1".into();
        let saved = manager
            .save(serde_json::to_value(&settings).expect("json"))
            .expect("saved");
        assert_eq!(saved.settings.provider.base_url, "http://127.0.0.1:9/v1");
    }
}
