//! `$ZETA_HOME/settings.json` on disk: a lenient loader, the environment's overrides, and
//! saving. The types are zeta-protocol's (re-exported here, beside what reads them).
//!
//! The loader never fails and never rewrites the user's file. Each field is checked on its
//! own (its JSON type, then its allowed range). A bad field is reported by name and replaced
//! by its default, and every valid field is kept. A missing file is created with the defaults.

mod env;
mod merge;
mod ranges;
#[cfg(test)]
mod tests;

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::CoreError;

pub use env::apply_env_overrides;
pub use zeta_protocol::settings::*;

/// The largest settings file read (a real one is a few kilobytes).
pub const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

/// The settings in force and what was wrong with the file they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSettings {
    pub settings: Settings,
    pub problems: Vec<SettingsProblem>,
    /// True when the file did not exist and was written with the defaults.
    pub created: bool,
}

/// Reads `path`, creating it with the defaults when it does not exist. Never fails on
/// content: problems are returned beside the settings. Fails only on I/O errors.
/// The `ZETA_LLM_*` environment variables override the provider section.
pub fn load_or_create(path: &Path) -> Result<LoadedSettings, CoreError> {
    let mut loaded = load_file(path)?;
    let env = |name: &str| std::env::var(name).ok();
    apply_env_overrides(&mut loaded.settings, env, &mut loaded.problems);
    Ok(loaded)
}

fn load_file(path: &Path) -> Result<LoadedSettings, CoreError> {
    if let Some(loaded) = read_file(path)? {
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
        let mut loaded = from_json_text("{}");
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
        Ok(text) => Ok(Some(from_json_text(&text))),
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
                    merge::json_kind(&other)
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
    let mut accepted = merge::defaults_value();
    merge::merge_fields(&mut accepted, &user, "", &mut problems);
    let mut settings = match serde_json::from_value::<Settings>(accepted) {
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
    ranges::reset_out_of_range(&mut settings, &mut problems);
    // Each MCP server entry is kept as written; a bad one is named (and skipped when the
    // servers start) while the others work.
    problems.extend(zeta_protocol::mcp::parse_servers(&settings.mcp_servers).1);
    LoadedSettings {
        settings,
        problems,
        created: false,
    }
}

/// Checks `text` as a whole settings file: `Ok` with the settings when every field is
/// valid, else every problem by field. Used before saving what the user edited.
pub fn validate_json_text(text: &str) -> Result<Settings, Vec<SettingsProblem>> {
    let loaded = from_json_text(text);
    if loaded.problems.is_empty() {
        Ok(loaded.settings)
    } else {
        Err(loaded.problems)
    }
}

/// Writes the settings to `path` through a temporary file renamed into place, so a
/// reader never sees half a file. Only the user's explicit save calls this.
pub fn save(settings: &Settings, path: &Path) -> Result<(), CoreError> {
    write_json(path, settings)
}

/// Writes `value` as pretty JSON to `path` through a temporary file renamed into place.
/// A value that cannot be written as JSON is an error, and the file is left as it was.
fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), CoreError> {
    let io_err = |what, source| CoreError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(value).map_err(|e| CoreError::SettingsSyntax {
        path: path.to_path_buf(),
        message: format!("the settings could not be written as JSON ({e}); the file is unchanged"),
    })?;
    let tmp = path.with_extension("json.saving");
    zeta_protocol::home::write_private(&tmp, format!("{text}\n").as_bytes())
        .map_err(|e| io_err("write settings file", e))?;
    std::fs::rename(&tmp, path).map_err(|e| io_err("replace settings file", e))
}

/// Applies `changes` (field paths as the file spells them, dotted for nested fields, e.g.
/// `commandTimeoutMs` or `provider.keepWarmSecs`, to new values) to the settings file at
/// `path` and saves it when the whole result passes the settings window's checks. Else
/// nothing is written and every problem comes back by field (an unknown field is one).
pub fn change_fields(
    path: &Path,
    changes: &Map<String, Value>,
) -> Result<Settings, Vec<SettingsProblem>> {
    let problem = |field: &str, message: String| SettingsProblem {
        field: field.to_string(),
        message,
    };
    if changes.is_empty() {
        return Err(vec![problem("(changes)", "no field to change".into())]);
    }
    let text = match crate::bounded::read_text(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(crate::bounded::BoundedReadError::NotFound) => "{}".into(),
        Err(e) => return Err(vec![problem("(file)", format!("could not read it: {e}"))]),
    };
    let mut root: Value = serde_json::from_str(&text).map_err(|e| {
        vec![problem(
            "(file)",
            format!(
                "it is not valid JSON ({}); fix it first",
                merge::strip_position(&e.to_string())
            ),
        )]
    })?;
    let mut problems = Vec::new();
    for (field, value) in changes {
        let mut at = &mut root;
        let parts: Vec<&str> = field.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            let Some(object) = at.as_object_mut() else {
                problems.push(problem(field, "it is not inside an object".into()));
                break;
            };
            if i + 1 == parts.len() {
                object.insert((*part).to_string(), value.clone());
                break;
            }
            at = object
                .entry((*part).to_string())
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let valid = validate_json_text(&root.to_string())?;
    save(&valid, path).map_err(|e| vec![problem("(file)", e.to_string())])?;
    Ok(valid)
}

/// Adds `allowance` to `permissions.alwaysAllow` in the file at `path` (created when
/// missing), leaving every other part of the file exactly as the user wrote it. A file
/// that is not a JSON object is not touched: the error says so.
pub fn add_always_allow(path: &Path, allowance: &Allowance) -> Result<(), CoreError> {
    edit_file(path, "add an allowance", |object| {
        let permissions = object
            .entry("permissions")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(permissions) = permissions.as_object_mut() else {
            return Err("`permissions` is not an object".into());
        };
        let list = permissions
            .entry("alwaysAllow")
            .or_insert_with(|| Value::Array(Vec::new()));
        let Some(list) = list.as_array_mut() else {
            return Err("`permissions.alwaysAllow` is not a list".into());
        };
        let entry = serde_json::to_value(allowance)
            .map_err(|e| format!("the allowance could not be written ({e})"))?;
        if !list.contains(&entry) {
            list.push(entry);
        }
        Ok(())
    })
}

/// Sets (`Some`) or removes (`None`) the MCP server `name` in `mcpServers` of the file at
/// `path`, leaving the rest of the file as the user wrote it. An entry that would be
/// skipped as bad is refused, with why.
pub fn set_mcp_server(path: &Path, name: &str, entry: Option<Value>) -> Result<(), CoreError> {
    if let Some(entry) = &entry {
        let one = std::collections::BTreeMap::from([(name.to_string(), entry.clone())]);
        if let Some(problem) = zeta_protocol::mcp::parse_servers(&one).1.into_iter().next() {
            return Err(CoreError::SettingsRefused {
                path: path.to_path_buf(),
                message: problem.to_string(),
            });
        }
    }
    edit_file(path, "change an MCP server", |object| {
        let servers = object
            .entry("mcpServers")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(servers) = servers.as_object_mut() else {
            return Err("`mcpServers` is not an object".into());
        };
        match entry {
            Some(entry) => {
                servers.insert(name.to_string(), entry);
            }
            None => {
                servers.remove(name);
            }
        }
        Ok(())
    })
}

/// Reads the file at `path` (an empty object when missing), lets `change` edit its top
/// level, and writes it back; nothing is written when it is not a JSON object or
/// `change` refuses (its message says why).
fn edit_file(
    path: &Path,
    doing: &str,
    change: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<(), CoreError> {
    let syntax = |message: String| CoreError::SettingsSyntax {
        path: path.to_path_buf(),
        message,
    };
    let text = match crate::bounded::read_text(path, MAX_SETTINGS_BYTES) {
        Ok(text) => text,
        Err(crate::bounded::BoundedReadError::NotFound) => "{}".into(),
        Err(e) => return Err(syntax(format!("could not read it to {doing}: {e}"))),
    };
    let mut root: Value = serde_json::from_str(&text)
        .map_err(|e| syntax(merge::strip_position(&e.to_string()).into()))?;
    let Some(object) = root.as_object_mut() else {
        return Err(syntax("it is not a JSON object".into()));
    };
    change(object).map_err(syntax)?;
    write_json(path, &root)
}

/// Writes the defaults to a file that does not exist yet; an existing file is never replaced.
fn write_new_file(path: &Path, settings: &Settings) -> Result<(), CoreError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let io_err = |what, source| CoreError::Io {
        what,
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(settings).map_err(|e| CoreError::SettingsSyntax {
        path: path.to_path_buf(),
        message: format!("the defaults could not be written as JSON ({e})"),
    })?;
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
