//! `zeta models`: the model files in `$ZETA_HOME/models` — list them, download one (by
//! name from the catalogue or by URL, resumable, checked by sha256), import a local file
//! (checked by its header), and `use` one (a GGUF becomes the `local` provider's model; a
//! whisper model the voice model).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use zeta_core::settings::{Protocol, ProviderKind};
use zeta_core::{Settings, ZetaHome};
use zeta_models::{catalog, ModelKind, ModelStore, Progress};

#[derive(Debug, clap::Subcommand)]
pub enum ModelsCommand {
    /// The installed models, and the catalogue's that are not installed.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Download a model by catalogue name or URL; an interrupted download resumes.
    Download {
        /// A catalogue name (see `zeta models list`) or an http(s) URL.
        what: String,
        /// The checksum the file must have, in hex: a sha256 (64 digits) or a SHA-1 (40).
        /// A catalogue model has its own.
        #[arg(long, alias = "sha1", alias = "checksum")]
        sha256: Option<String>,
        /// The name to keep it under (default: the URL's file name).
        #[arg(long)]
        name: Option<String>,
    },
    /// Copy (or hard-link) a local GGUF or whisper.cpp ggml file into the models folder.
    Import {
        file: PathBuf,
        #[arg(long)]
        name: Option<String>,
    },
    /// Make an installed model the one Zeta uses: a GGUF becomes the `local` provider.
    Use { name: String },
}

pub fn run(home: &ZetaHome, command: ModelsCommand) -> anyhow::Result<ExitCode> {
    let store = ModelStore::new(home.models_dir());
    match command {
        ModelsCommand::List { json } => {
            let installed = store.list()?;
            if json {
                out!("{}", serde_json::to_string_pretty(&installed)?);
                return Ok(ExitCode::SUCCESS);
            }
            if installed.is_empty() {
                out!("no models in {}", store.dir().display());
            }
            for m in &installed {
                out!(
                    "{:<48} {:<15} {:>8.1} MB",
                    m.name,
                    m.kind.label(),
                    m.bytes as f64 / 1e6
                );
            }
            for k in catalog::KNOWN
                .iter()
                .filter(|k| !installed.iter().any(|m| m.name == k.name))
            {
                out!(
                    "{:<48} {:<15} {:>8.1} MB  (not installed: zeta models download {})",
                    k.name,
                    k.kind.label(),
                    k.bytes as f64 / 1e6,
                    k.name
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        ModelsCommand::Download { what, sha256, name } => {
            let (url, sha256, name) = match catalog::find(&what) {
                Some(k) => (
                    k.url(),
                    Some(sha256.unwrap_or_else(|| k.checksum.to_string())),
                    name.unwrap_or_else(|| k.name.to_string()),
                ),
                None if what.starts_with("http://") || what.starts_with("https://") => {
                    let from_url = what
                        .split(['?', '#'])
                        .next()
                        .and_then(|u| u.rsplit('/').next())
                        .filter(|n| !n.is_empty())
                        .map(str::to_string);
                    let Some(name) = name.or(from_url) else {
                        bail!("{what} has no file name: give one with --name");
                    };
                    (what.clone(), sha256, name)
                }
                None => bail!(
                    "{what:?} is neither a catalogue name nor a URL; `zeta models list` shows the catalogue"
                ),
            };
            if sha256.is_none() {
                err!("zeta: no --sha256 (or --sha1) given: the file is checked by its header only");
            }
            let dest = store.dir().join(&name);
            let runtime =
                tokio::runtime::Runtime::new().context("could not start the async runtime")?;
            let mut last = 0u64;
            let mut show = |p: Progress| {
                if p.received == p.resumed_from && p.resumed_from > 0 {
                    err!("zeta: resuming at {:.1} MB", p.resumed_from as f64 / 1e6);
                }
                if p.received >= last + (8 << 20) || Some(p.received) == p.total {
                    last = p.received;
                    match p.total {
                        Some(t) => write!(
                            std::io::stderr(),
                            "\rzeta: {:.1} / {:.1} MB ({:.0} %)",
                            p.received as f64 / 1e6,
                            t as f64 / 1e6,
                            p.received as f64 * 100.0 / t.max(1) as f64
                        ),
                        None => write!(
                            std::io::stderr(),
                            "\rzeta: {:.1} MB",
                            p.received as f64 / 1e6
                        ),
                    }
                    .unwrap_or(());
                    let _ = std::io::stderr().flush();
                }
            };
            let result = runtime.block_on(zeta_models::download(
                &url,
                &dest,
                sha256.as_deref(),
                &mut show,
            ));
            err!();
            result?;
            match store.get(&name) {
                Ok(m) => {
                    out!(
                        "{} ({}) is in {}",
                        m.name,
                        m.kind.label(),
                        store.dir().display()
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    let _ = std::fs::remove_file(&dest);
                    Err(e).context("the downloaded file is not a usable model; it was removed")
                }
            }
        }
        ModelsCommand::Import { file, name } => {
            let m = store.import(&file, name.as_deref())?;
            out!(
                "{} ({}, {:.1} MB) imported",
                m.name,
                m.kind.label(),
                m.bytes as f64 / 1e6
            );
            Ok(ExitCode::SUCCESS)
        }
        ModelsCommand::Use { name } => {
            let m = store.get(&name)?;
            let path = home.settings_file();
            let mut settings = zeta_core::settings::read_file(&path)?
                .unwrap_or_else(|| zeta_core::settings::from_json_text("{}"))
                .settings;
            match m.kind {
                ModelKind::Gguf => use_local_llm(&mut settings, &m.name),
                ModelKind::Whisper => settings.voice.model = m.name.clone(),
            }
            zeta_core::settings::save(&settings, &path)?;
            out!(
                "{} is now the {} model",
                m.name,
                match m.kind {
                    ModelKind::Gguf => "language (provider: local)",
                    ModelKind::Whisper => "voice",
                }
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The `local` provider on `model`: Zeta runs the server, the JSON planner protocol (small
/// models cannot do native tool calls), and a context a CPU can afford.
pub fn use_local_llm(settings: &mut Settings, model: &str) {
    let p = &mut settings.provider;
    p.kind = ProviderKind::Local;
    p.base_url = String::new();
    p.model = model.to_string();
    p.protocol = Protocol::Json;
    p.context_window = p.context_window.clamp(4096, 8192);
}
