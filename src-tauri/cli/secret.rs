//! `zeta secret`: store, remove and inspect API keys. A key is read from stdin (never from
//! the command line, where other users could see it in the process list) and is never
//! printed back.

use std::io::Read;
use std::process::ExitCode;

use anyhow::{bail, Context};
use zeta_core::ZetaHome;
use zeta_llm::config::{key_name, key_names, kind_name};
use zeta_llm::{Backend, Secret, SecretStore};

#[derive(Debug, clap::Subcommand)]
pub enum SecretCommand {
    /// Store a key read from stdin. NAME defaults to the configured provider's kind
    /// (e.g. `openai`); `KIND@BASEURL` makes it for one endpoint only.
    Set { name: Option<String> },
    /// Remove a stored key.
    Delete { name: Option<String> },
    /// Where keys are kept, and whether the configured providers have one (never the key).
    Status,
}

pub fn run(home: &ZetaHome, command: SecretCommand) -> anyhow::Result<ExitCode> {
    let store = SecretStore::for_home(home.root());
    let settings = zeta_core::settings::load_or_create(&home.settings_file())?.settings;
    let default_name = || kind_name(settings.provider.kind).to_string();
    match command {
        SecretCommand::Set { name } => {
            let name = name.unwrap_or_else(default_name);
            let mut key = String::new();
            std::io::stdin()
                .read_to_string(&mut key)
                .context("could not read the key from stdin")?;
            let key = key.trim();
            if key.is_empty() {
                bail!("no key on stdin: pipe it in, e.g. `zeta secret set {name} < keyfile`");
            }
            let backend = store.set(&name, &Secret::new(key))?;
            err!("zeta: stored the key {name:?} in {backend}");
        }
        SecretCommand::Delete { name } => {
            let name = name.unwrap_or_else(default_name);
            if store.delete(&name)? {
                err!("zeta: removed the key {name:?}");
            } else {
                err!("zeta: there was no key {name:?}");
            }
        }
        SecretCommand::Status => {
            out!("keys are kept in {}", store.backend());
            let providers = std::iter::once(&settings.provider)
                .chain(&settings.fallback_providers)
                .filter(|p| p.kind != zeta_core::settings::ProviderKind::None);
            for p in providers {
                let names = key_names(p);
                let found = names.iter().find(|n| matches!(store.get(n), Ok(Some(_))));
                match found {
                    Some(n) => out!("{}: a key is stored (as {n:?})", key_name(p)),
                    None => out!("{}: no stored key", key_name(p)),
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The doctor's line: where keys go, and whether that is the OS keyring.
pub fn backend_line(home: &ZetaHome) -> (bool, String) {
    let store = SecretStore::for_home(home.root());
    let backend = store.backend().clone();
    (
        matches!(backend, Backend::Keyring),
        format!("API keys: {backend}"),
    )
}
