//! Each server's tool list from its last start, kept in `$ZETA_HOME/mcp-tools.json` with
//! the configuration it came from. With it a task chooses among a server's tools without
//! starting the server, which starts only when one of its tools is called; a changed
//! entry (another command, other arguments) is started again to list its tools. A file
//! that cannot be read is only a cache: the servers are started to list their tools.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use zeta_protocol::mcp::ServerConfig;

use crate::connect::ToolInfo;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entry {
    /// The configuration the tools were listed with, as text.
    config: String,
    tools: Vec<ToolInfo>,
}

pub struct ToolCache {
    file: Option<PathBuf>,
    entries: Mutex<BTreeMap<String, Entry>>,
}

fn fingerprint(config: &ServerConfig) -> String {
    format!("{:?}", (&config.name, &config.transport))
}

/// What a JSON file Zeta keeps holds; empty when there is no file or it cannot be read
/// (it is rebuilt).
pub(crate) fn read_kept<T: serde::de::DeserializeOwned + Default>(
    file: Option<&std::path::Path>,
) -> T {
    file.and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

impl ToolCache {
    /// The cache kept in `file` (in memory only without one).
    pub fn open(file: Option<PathBuf>) -> Self {
        let entries = read_kept(file.as_deref());
        Self {
            file,
            entries: Mutex::new(entries),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The tools `config`'s server listed last time, if its configuration is the same.
    pub fn get(&self, config: &ServerConfig) -> Option<Vec<ToolInfo>> {
        let entries = self.entries();
        let entry = entries.get(&config.name)?;
        (entry.config == fingerprint(config)).then(|| entry.tools.clone())
    }

    /// Remembers what `config`'s server listed (written to the file when it changed).
    pub fn put(&self, config: &ServerConfig, tools: &[ToolInfo]) {
        let entry = Entry {
            config: fingerprint(config),
            tools: tools.to_vec(),
        };
        let text = {
            let mut entries = self.entries();
            if entries.get(&config.name) == Some(&entry) {
                return;
            }
            entries.insert(config.name.clone(), entry);
            serde_json::to_string_pretty(&*entries)
        };
        let (Some(file), Ok(text)) = (&self.file, text) else {
            return;
        };
        let tmp = file.with_extension("json.saving");
        let written = zeta_protocol::home::write_private(&tmp, text.as_bytes())
            .and_then(|()| std::fs::rename(&tmp, file));
        if let Err(e) = written {
            tracing::warn!(
                "could not keep the MCP tool lists in {}: {e}",
                file.display()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use zeta_protocol::mcp::{parse_servers, Start};

    fn config(args: &str) -> ServerConfig {
        let map =
            serde_json::from_value(json!({"s": {"command": "x", "args": [args]}})).expect("map");
        parse_servers(&map).0.remove(0)
    }

    #[test]
    fn tools_are_remembered_per_configuration_across_opens() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("mcp-tools.json");
        let tool = ToolInfo::from_json(&json!({"name": "t", "description": "d"})).expect("tool");
        let cache = ToolCache::open(Some(file.clone()));
        assert_eq!(cache.get(&config("a")), None);
        cache.put(&config("a"), std::slice::from_ref(&tool));
        let again = ToolCache::open(Some(file.clone()));
        assert_eq!(again.get(&config("a")), Some(vec![tool.clone()]));
        assert_eq!(
            again.get(&config("b")),
            None,
            "another command lists its tools again"
        );
        let mut eager = config("a");
        eager.start = Start::OnAppStart;
        assert!(
            again.get(&eager).is_some(),
            "how it starts does not change its tools"
        );
        std::fs::write(&file, "not json").expect("write");
        assert_eq!(ToolCache::open(Some(file)).get(&config("a")), None);
    }
}
