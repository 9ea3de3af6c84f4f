//! The arguments a small model's plan may give each tool, bound to the tool in the plan's
//! schema: the server turns the schema into a grammar, so a constrained model that names
//! a tool can only write arguments of that tool's own shape (its required ones present,
//! of their types, no others), and cannot write arguments before it has named one.
//! Seen without it: `ui_act {}` three times for "Type Lisbon into the City dialog", the
//! schema's open object allowing anything.
//!
//! A tool's parameter schema is used as it is where a server's JSON-schema grammar holds
//! it (the keywords below, nested a few levels); any other (references, combinations, a
//! list of types, as an MCP server may declare) stays an open object, as before.

use serde_json::{json, Value};

use crate::model::ToolSpec;

/// Keywords a JSON-schema grammar takes (llama.cpp's converter, Ollama's); anything else
/// leaves the tool's arguments open.
const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "description",
    "title",
    "enum",
    "items",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "default",
];

/// Deeper than this, a schema stays open (a grammar this deep is slow to build).
const MAX_DEPTH: usize = 4;

/// What a plan may give `spec` as its arguments.
pub fn arguments_of(spec: &ToolSpec) -> Value {
    let p = &spec.parameters;
    if p.get("type").and_then(Value::as_str) == Some("object") && held(p, 0) {
        p.clone()
    } else {
        json!({"type": "object"})
    }
}

/// Whether a grammar holds `schema` as it is.
fn held(schema: &Value, depth: usize) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    depth <= MAX_DEPTH
        && map.iter().all(|(key, value)| match key.as_str() {
            "properties" => value
                .as_object()
                .is_some_and(|p| p.values().all(|s| held(s, depth + 1))),
            "items" => held(value, depth + 1),
            "additionalProperties" => value.is_boolean(),
            "type" => value.is_string(),
            "required" => value
                .as_array()
                .is_some_and(|r| r.iter().all(Value::is_string)),
            "enum" => value.as_array().is_some_and(|e| !e.is_empty()),
            other => KEYWORDS.contains(&other),
        })
}

/// `schema` (one object: the plan's keys, with optional `tool` and `args`) as one
/// alternative without a tool and one per tool of `tools` (the shell is the plan's
/// "command", not one of them): `tool` that tool's name, `args` its arguments, both
/// required, and no alternative takes keys it does not name, so a plan without a tool
/// cannot carry one. A call's "reply" is empty and its "done" false: the server writes
/// keys in their sorted order, "args" first and "tool" last, and a free "reply" between
/// them let a small model write a claim of what the call would do until its tokens ran
/// out (seen on the GUI bench at 194c590: `{"args": {"action": "press", "element": 2},
/// "command": "", "done": false, "reply": "The user pressed OK in the Pet dialog, and
/// the command was run successfully. …` cut off, unreadable twice, and the task ended
/// with nothing done).
pub fn bound_plan(schema: &Value, tools: &[&ToolSpec]) -> Value {
    let mut bare = schema.clone();
    bare["additionalProperties"] = json!(false);
    if let Some(props) = bare["properties"].as_object_mut() {
        drop_key(props, "tool");
        drop_key(props, "args");
    }
    let mut any = vec![bare];
    for spec in tools {
        let mut one = schema.clone();
        one["additionalProperties"] = json!(false);
        one["properties"]["tool"] = json!({"const": spec.name});
        one["properties"]["args"] = arguments_of(spec);
        // A call leaves "command" empty: a command is the shell's. It answers nothing.
        one["properties"]["command"] = json!({"const": ""});
        if one["properties"]["reply"].is_object() {
            one["properties"]["reply"] = json!({"const": ""});
        }
        if one["properties"]["done"].is_object() {
            one["properties"]["done"] = json!({"const": false});
        }
        if let Some(required) = one["required"].as_array_mut() {
            required.push(json!("tool"));
            required.push(json!("args"));
        }
        any.push(one);
    }
    json!({"anyOf": any})
}

/// A small model's tool alternative (`{"args", "tool"}`) once per tool, each with its
/// own arguments.
pub fn bound_calls(offered: &[ToolSpec], names: &[&str]) -> Vec<Value> {
    offered
        .iter()
        .filter(|t| names.contains(&t.name.as_str()))
        .map(|spec| {
            json!({"type": "object",
                   "properties": {"args": arguments_of(spec), "tool": {"const": spec.name}},
                   "required": ["args", "tool"],
                   "additionalProperties": false})
        })
        .collect()
}

/// `schema` without a shell command: every alternative's "command" may only be empty, and
/// an alternative that is a command alone goes, and the one without a tool is the answer
/// ("done" true). What is left calls another tool or answers. For a task whose request is about a window on screen, after a command was
/// held back there (seen: the same `zenity --entry …` written again after the refusal
/// said to act in the window).
pub fn without_commands(schema: &mut Value) {
    let Some(any) = schema.get_mut("anyOf").and_then(Value::as_array_mut) else {
        if schema["properties"]["command"].is_object() {
            schema["properties"]["command"] = json!({"const": ""});
        }
        return;
    };
    any.retain(|alt| {
        let only_command = alt["properties"]
            .as_object()
            .is_some_and(|p| p.len() == 1 && p.contains_key("command"));
        !only_command
    });
    for alt in any.iter_mut() {
        if alt["properties"]["command"].is_object() {
            alt["properties"]["command"] = json!({"const": ""});
        }
        // Without a tool and without a command, a plan can only be the answer (seen: an
        // empty command with "done": false, unreadable, and the task stalled).
        let answers = alt["properties"]["tool"].is_null() && alt["properties"]["done"].is_object();
        if answers {
            alt["properties"]["done"] = json!({"const": true});
        }
    }
}

/// Whether `schema` binds each tool's arguments to it (the small model's forms).
pub fn binds_calls(schema: &Value) -> bool {
    schema["anyOf"].as_array().is_some_and(|any| {
        any.iter()
            .any(|alt| alt["properties"]["tool"]["const"].is_string())
    })
}

/// `schema` with only the alternatives that call one of the tools `names`: no command,
/// no answer, no other tool. For the step after a tool narrowed its next call to what
/// the request still needs there (`Tool::call_next`: a keypad's next key; seen: the
/// question "What is the result of 12 times 7?" asked of nobody instead).
pub fn only_tools(schema: &mut Value, names: &[&str]) {
    let Some(any) = schema.get_mut("anyOf").and_then(Value::as_array_mut) else {
        return;
    };
    let calls = |alt: &Value| {
        alt["properties"]["tool"]["const"]
            .as_str()
            .is_some_and(|t| names.contains(&t))
    };
    if any.iter().any(calls) {
        any.retain(calls);
    }
}

/// `schema` with only the alternatives that call a tool other than the shell (the
/// element tools, a question): no command, no answer. For the one step after a check
/// that an act answers sent the answer back (seen: the same answer written again in
/// most window tasks of the GUI bench, with nothing done in the window). A schema with
/// no such alternative is left as it is.
pub fn only_calls(schema: &mut Value) {
    let Some(any) = schema.get_mut("anyOf").and_then(Value::as_array_mut) else {
        return;
    };
    let calls = |alt: &Value| alt["properties"]["tool"]["const"].is_string();
    if any.iter().any(calls) {
        any.retain(calls);
    }
}

/// `schema` with only a shell command: no answer, no other tool. For the one step after
/// `second-way` sent an answer back for a program, run in the shell (seen: asked for
/// one, a small model asked the person where a file was, or answered again at once).
/// A command alternative keeps its own shape; one object that both commands and answers
/// (a plan with "done") may only command: "command" not empty, "done" false, "reply"
/// empty.
pub fn only_commands(schema: &mut Value) {
    let command = |alt: &mut Value| {
        let props = &mut alt["properties"];
        if props["command"].is_object() {
            props["command"] = json!({"type": "string", "minLength": 1});
        }
        if props["reply"].is_object() {
            props["reply"] = json!({"const": ""});
        }
        if props["done"].is_object() {
            props["done"] = json!({"const": false});
        }
    };
    let Some(any) = schema.get_mut("anyOf").and_then(Value::as_array_mut) else {
        if schema["properties"]["command"].is_object() {
            command(schema);
        }
        return;
    };
    let commands = |alt: &Value| {
        let p = &alt["properties"];
        !p["tool"]["const"].is_string()
            && p["command"].is_object()
            && p["command"]["const"].as_str() != Some("")
    };
    if !any.iter().any(commands) {
        return;
    }
    any.retain(commands);
    for alt in any.iter_mut() {
        command(alt);
    }
}

/// `schema` with only the answer: no command, no tool. For the one step after an act in a
/// window that did what the request asks there, as far as the window tells (`ReadBack::met`
/// with nothing left, and the window closed or its file saved): seen, an editor's text
/// set and saved, then typed into again and saved again, or set again and again with the
/// line added each time, until the step limit. A schema with no answer alternative (a
/// larger model's one object) is left as it is.
pub fn only_answer(schema: &mut Value) {
    let answers = |alt: &Value| {
        alt["properties"]["reply"].is_object() && !alt["properties"]["tool"]["const"].is_string()
    };
    let Some(any) = schema.get_mut("anyOf").and_then(Value::as_array_mut) else {
        return;
    };
    if !any.iter().any(answers) {
        return;
    }
    any.retain(answers);
    without_commands(schema);
}

/// `schema` with the arguments of tool `tool` as `args` wherever a plan alternative
/// calls it by name (the small model's forms, `bound_plan` and `bound_calls`): what the
/// tool takes now (`Tool::arguments_now`), e.g. the numbers of the elements last shown.
/// A plan with one open "args" (a larger model's) is left as it is.
pub fn bind_now(schema: &mut Value, tool: &str, args: &Value) {
    let Some(any) = schema.get_mut("anyOf").and_then(Value::as_array_mut) else {
        return;
    };
    for alt in any.iter_mut() {
        if alt["properties"]["tool"]["const"].as_str() == Some(tool) {
            alt["properties"]["args"] = args.clone();
        }
    }
}

/// `map` without `key`, the others in their order (`Map::remove` moves the last key into
/// the gap when serde_json keeps keys in order, and the grammar writes keys in the
/// schema's order: "args" would come before "tool").
pub fn drop_key(map: &mut serde_json::Map<String, Value>, key: &str) {
    if map.contains_key(key) {
        *map = std::mem::take(map)
            .into_iter()
            .filter(|(k, _)| k != key)
            .collect();
    }
}
