//! The lenient merge: each field of the user's file is taken when the whole still reads as
//! settings, and named in a problem when it does not.

use serde_json::{Map, Value};

use super::{Settings, SettingsProblem};

pub(super) fn defaults_value() -> Value {
    serde_json::to_value(Settings::default()).unwrap_or(Value::Object(Map::new()))
}

/// Copies each field of `user` into `accepted` if the whole still deserializes; otherwise
/// records a problem naming the field. Objects are walked field by field.
pub(super) fn merge_fields(
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
            Err(e) => {
                tracing::debug!("settings field {path}: {}", strip_position(&e.to_string()));
                problems.push(SettingsProblem {
                    field: path,
                    message: format!(
                        "{value} is not {}; using the default {slot}",
                        wanted(&slot, value)
                    ),
                })
            }
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

/// What a field takes, in words, read from the kind of its default value (the serde
/// message says "expected u64"; a person needs "a whole number, 0 or more").
fn wanted(default: &Value, given: &Value) -> &'static str {
    match default {
        Value::String(_) if !given.is_string() => "text",
        Value::Bool(_) => "true or false",
        Value::Number(n) if n.is_u64() => "a whole number, 0 or more",
        Value::Number(n) if n.is_i64() => "a whole number",
        Value::Number(_) => "a number",
        Value::String(_) => "one of the choices this field takes",
        Value::Array(_) => "a list",
        Value::Object(_) => "a group of settings",
        Value::Null => "a value this field takes",
    }
}

pub(super) fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

pub(super) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
