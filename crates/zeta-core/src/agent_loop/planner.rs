//! Reading what the model said: seed 000's JSON planner protocol
//! (`{"command","reasoning","reply","done"}` plus optional `"tool"`/`"args"`; a small model's
//! short forms `{"command"}`, `{"command": "", "reply"}`, `{"args","tool"}`), and tool calls that a model
//! leaked into plain text instead of using native tool calling.

use crate::text::clip;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::model::ToolCall;
use crate::model::ToolSpec;

/// The tool a planner `command` runs.
pub const SHELL_TOOL: &str = "shell";
/// The loop's own question tool (`asks`).
pub const ASK_USER: &str = "ask_user";

/// What one model turn asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The task is finished; this is the answer.
    Final(String),
    /// Run these calls, then ask again.
    Calls(Vec<ToolCall>),
}

/// How the planner's plan is written, chosen per task (`run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanForm {
    /// `{"command","reasoning","reply","done"}` (+ `"tool"`, `"args"`): a larger model.
    Reasoned,
    /// The same without "reasoning": a small model working on a window, whose steps
    /// chain element calls (the short forms made it repeat a typing call instead of
    /// pressing Save after it).
    Plain,
    /// A small model's short forms (`short_plan_schema`): everything else it is asked.
    Short,
}

/// The JSON Schema the planner reply must satisfy (sent as structured output). `tool`
/// may only name one of `tools` (or be empty), so a constrained model cannot invent one.
pub fn plan_schema(tools: &[&str]) -> Value {
    plan_schema_with(tools, PlanForm::Reasoned)
}

/// The plan's schema for the tools offered: for a small model's forms, each tool's
/// arguments bound to it (`grammar`), so a constrained model cannot call a tool without
/// the arguments it takes. A larger model's plan keeps one open "args" object (a server
/// may refuse a schema whose root is a choice).
pub fn plan_schema_for(offered: &[ToolSpec], form: PlanForm) -> Value {
    let names: Vec<&str> = offered.iter().map(|t| t.name.as_str()).collect();
    let mut schema = plan_schema_with(&names, form);
    match form {
        PlanForm::Reasoned => {}
        PlanForm::Plain => {
            let tools: Vec<&ToolSpec> = offered.iter().filter(|t| t.name != SHELL_TOOL).collect();
            if !tools.is_empty() {
                schema = super::grammar::bound_plan(&schema, &tools);
            }
        }
        PlanForm::Short => {
            if let Some(any) = schema["anyOf"].as_array_mut() {
                // The one open tool alternative, as one per tool it names.
                if let Some(at) = any.iter().position(|a| a["properties"]["tool"].is_object()) {
                    let open = any.remove(at);
                    let names: Vec<&str> = open["properties"]["tool"]["enum"]
                        .as_array()
                        .map(|e| e.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    any.extend(super::grammar::bound_calls(offered, &names));
                }
            }
        }
    }
    schema
}

/// The plan's schema in the given form (see `prompt::planner_prompt`), each tool's
/// arguments an open object.
pub fn plan_schema_with(tools: &[&str], form: PlanForm) -> Value {
    let mut schema = match form {
        PlanForm::Short => return short_plan_schema(tools),
        PlanForm::Reasoned | PlanForm::Plain => full_plan_schema(tools),
    };
    if form == PlanForm::Plain {
        if let Some(props) = schema["properties"].as_object_mut() {
            super::grammar::drop_key(props, "reasoning");
        }
        // A small model's answer is bounded, so one that repeats itself still closes its
        // JSON (seen on the GUI bench at 2035d48: a refusal's sentence written again and
        // again for 768 tokens, unreadable, and the task ended "could not be understood").
        schema["properties"]["reply"]["maxLength"] = json!(PLAN_REPLY_MAX_CHARS);
        if let Some(required) = schema["required"].as_array_mut() {
            required.retain(|k| k != "reasoning");
        }
    }
    schema
}

/// A small model's plan: one of three short objects the grammar enforces — `{"command"}` to
/// run a shell command, `{"command": "", "reply"}` to answer (which ends the task), or, when
/// there are other tools, `{"args", "tool"}` (keys in the order the server's grammar writes
/// them); a question to the user is the command `ask_user('…')`.
/// Every key is a token the model generates at ~6 per second on 2 cores: the three-key
/// plan spent 27 tokens on `nproc`, this one ~10. And a constrained model cannot write a
/// guessed answer beside the command that would show it (seen: "8 CPU cores" beside
/// `nproc`, then repeated after the output said 2).
fn short_plan_schema(tools: &[&str]) -> Value {
    let object = |properties: Value, required: Value| {
        json!({"type": "object", "properties": properties, "required": required,
               "additionalProperties": false})
    };
    let mut any = vec![
        object(
            json!({"command": {"type": "string", "minLength": 1}}),
            json!(["command"]),
        ),
        // "command" first, empty: the model decides there is nothing left to run before it
        // answers (a bare `{"reply"}` let it answer a two-part request after one part).
        object(
            json!({"command": {"const": ""}, "reply": {"type": "string", "minLength": 1, "maxLength": PLAN_REPLY_MAX_CHARS}}),
            json!(["command", "reply"]),
        ),
    ];
    // ask_user is asked as a command (`ask_user('…')`, read by `parse_plan`): a small model
    // starts every step with "command", and did not open `{"args"` to ask (seen: it
    // answered a request that said to ask it).
    let others: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| *t != SHELL_TOOL && *t != ASK_USER && !t.is_empty())
        .collect();
    if !others.is_empty() {
        any.push(object(
            json!({"args": {"type": "object"}, "tool": {"type": "string", "enum": others}}),
            json!(["args", "tool"]),
        ));
    }
    json!({"anyOf": any})
}

/// The plan a step ran, as a small model writes it (`short_plan_schema`): compact, one
/// line, with no reply beside the command. Kept in the history instead of the model's own text, which may
/// carry a guessed answer it would repeat, and is longer (pretty-printed).
pub fn plan_of(call: &ToolCall) -> String {
    let text = |v: &Value| serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into());
    let arg = |key: &str| {
        call.arguments
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    if call.name == SHELL_TOOL {
        format!("{{\"command\": {}}}", text(&Value::String(arg("command"))))
    } else if call.name == ASK_USER {
        let asked = format!("{ASK_USER}('{}')", arg("question"));
        format!("{{\"command\": {}}}", text(&Value::String(asked)))
    } else {
        format!(
            "{{\"args\": {}, \"tool\": {}}}",
            text(&call.arguments),
            text(&Value::String(call.name.clone()))
        )
    }
}

fn full_plan_schema(tools: &[&str]) -> Value {
    let mut names: Vec<&str> = vec![""];
    names.extend(tools.iter().filter(|t| **t != SHELL_TOOL));
    if names.len() == 1 {
        // Shell only: seed 000's four keys.
        let mut schema = full_plan_schema(&["-"]);
        if let Some(props) = schema["properties"].as_object_mut() {
            super::grammar::drop_key(props, "tool");
            super::grammar::drop_key(props, "args");
        }
        return schema;
    }
    json!({
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "one shell command to run next, or empty"},
            "reasoning": {"type": "string"},
            "reply": {"type": "string", "description": "the answer for the user when done"},
            "done": {"type": "boolean"},
            "tool": {"type": "string", "enum": names, "description": "a tool other than shell, or empty"},
            "args": {"type": "object", "description": "arguments for tool"}
        },
        "required": ["command", "reasoning", "reply", "done"]
    })
}

/// The verification turn's answer in the planner protocol: what the outputs showed, the
/// command for a part not done yet, and a part that cannot be done. The answer itself is
/// not written again, so a small model cannot lose it while checking.
/// The schema of a reply that may only answer: nothing to run.
/// The reply is bounded (`ANSWER_MAX_CHARS`): the grammar closes the string there, so a
/// small model that repeats itself (seen: 768 tokens, ~155 s, of one sentence again and
/// again) still ends with readable JSON.
pub fn answer_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "reply": {"type": "string", "description": "the answer to the user's request", "maxLength": ANSWER_MAX_CHARS}
        },
        "required": ["reply"]
    })
}

pub fn verdict_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "checked": {"type": "string", "description": "for each part of the request: what the outputs showed"},
            "next_command": {"type": "string", "description": "the shell command for a part not done yet, or empty"},
            "unable": {"type": "string", "description": "a part that cannot be done and why, or empty"}
        },
        "required": ["checked", "next_command", "unable"]
    })
}

/// What the verification turn decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A part is not done: run this.
    Continue(ToolCall),
    /// Done; `unable` names what cannot be done (said with the answer).
    Finished { unable: Option<String> },
    /// The check says the request is not done, but gave no command and no reason.
    Unfinished,
}

#[derive(Debug, Deserialize)]
struct VerdictReply {
    #[serde(default)]
    checked: String,
    #[serde(default)]
    next_command: String,
    #[serde(default)]
    unable: String,
}

/// Reads a verification reply. One that cannot be read confirms the answer as it was.
pub fn parse_verdict(text: &str, id: &str) -> Verdict {
    let reply = json_objects(text)
        .into_iter()
        .find_map(|v| serde_json::from_value::<VerdictReply>(v).ok());
    let Some(reply) = reply else {
        return Verdict::Finished { unable: None };
    };
    let command = reply.next_command.trim();
    if let Some(question) = question_in(command) {
        return Verdict::Continue(ToolCall {
            id: id.to_string(),
            name: ASK_USER.to_string(),
            arguments: json!({ "question": question }),
        });
    }
    if !command.is_empty() && !is_nothing(command) {
        return Verdict::Continue(ToolCall {
            id: id.to_string(),
            name: SHELL_TOOL.to_string(),
            arguments: json!({ "command": command }),
        });
    }
    let unable = reply.unable.trim();
    if !unable.is_empty() && !is_nothing(unable) {
        return Verdict::Finished {
            unable: Some(unable.to_string()),
        };
    }
    let checked = reply.checked.trim().to_ascii_lowercase();
    if ["false", "no", "not done", "incomplete"].iter().any(|n| {
        checked == *n
            || checked.starts_with(&format!("{n}."))
            || checked.starts_with(&format!("{n},"))
    }) {
        return Verdict::Unfinished;
    }
    Verdict::Finished { unable: None }
}

/// "none", "n/a", "nothing" and the like: a small model's way of leaving a field empty.
fn is_nothing(text: &str) -> bool {
    let t = text.trim().trim_end_matches('.').to_ascii_lowercase();
    matches!(
        t.as_str(),
        "none" | "n/a" | "na" | "nothing" | "no" | "-" | "null" | "empty" | "\"\"" | "all done"
    ) || t.starts_with("none ")
        || t.starts_with("nothing ")
        || t.starts_with("all parts")
}

#[derive(Debug, Deserialize)]
struct Plan {
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    reply: Option<String>,
    #[serde(default)]
    done: Option<bool>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    args: Option<Value>,
}

/// Characters at most in a reply that may only answer (`answer_schema`).
pub const ANSWER_MAX_CHARS: u32 = 400;

/// Characters at most in a small model's answer (`PlanForm::Plain`, `PlanForm::Short`):
/// room for a list of lines, closed by the grammar well before a reply's token limit.
pub const PLAN_REPLY_MAX_CHARS: u32 = 1500;

/// The non-empty `reply` of a planner object, whatever else it says.
pub fn reply_of(text: &str) -> Option<String> {
    json_objects(text)
        .into_iter()
        .find_map(|v| v.get("reply")?.as_str().map(str::trim).map(str::to_string))
        .filter(|r| !r.is_empty())
}

/// The `reply` of a JSON object cut off before its end (the token cap hit inside the
/// string): what was written of it, unescaped, marked as cut off. `None` when the text
/// has no such string or it is empty.
pub fn cut_off_reply(text: &str) -> Option<String> {
    let at = text.find("\"reply\"")?;
    let rest = text[at + "\"reply\"".len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let mut reply = String::new();
    let mut chars = rest.chars();
    let mut closed = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                closed = true;
                break;
            }
            '\\' => match chars.next() {
                Some('n') => reply.push('\n'),
                Some('t') => reply.push('\t'),
                Some('r') => {}
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    let code = (hex.len() == 4)
                        .then(|| u32::from_str_radix(&hex, 16).ok())
                        .flatten();
                    if let Some(c) = code.and_then(char::from_u32) {
                        reply.push(c);
                    }
                }
                Some(other) => reply.push(other),
                None => break,
            },
            c => reply.push(c),
        }
    }
    let reply = reply.trim();
    if reply.is_empty() {
        return None;
    }
    Some(if closed {
        reply.to_string()
    } else {
        format!("{reply} … (the model's answer was cut off here)")
    })
}

/// Parses a planner reply as it is written (the planner protocol mends it after, see
/// `repair`). `Err` carries the hint sent back to the model. `id` names the call that a
/// command or tool becomes.
pub fn parse_plan(text: &str, id: &str) -> Result<Step, String> {
    let Some(value) = json_objects(text).into_iter().next() else {
        return Err(format!(
            "Your reply was not a JSON object. Reply with exactly one JSON object with the keys \
             command, reply and done. You wrote: {}",
            clip(text, 200)
        ));
    };
    let plan: Plan = serde_json::from_value(value.clone()).map_err(|e| {
        format!("Your JSON did not match the plan format ({e}). Use the keys command (string), reply (string) and done (boolean).")
    })?;
    let tool = plan
        .tool
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let command = plan
        .command
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    // The tool's bare name as the command (`"command": "ask_user"`, its question in
    // "args" or "reply") names the tool, not a program.
    let (tool, command) = match command {
        Some(ASK_USER) => (tool.or(Some(ASK_USER)), None),
        _ => (tool, command),
    };
    // "tool": "ask_user" with no question is a leftover when "command" holds a shell line:
    // the command runs. A command that is a question, or `ask_user(…)`, is the question.
    let question = command.and_then(|c| question_in(c).or(c.ends_with('?').then_some(c)));
    // Also with no command: `ask_user` without a question is no call at all (seen: a
    // model naming it with empty args between every step).
    let leftover = |args: &Option<Value>| {
        tool == Some(ASK_USER)
            && question.is_none()
            && args
                .as_ref()
                .and_then(|a| a.get("question"))
                .and_then(Value::as_str)
                .is_none_or(|q| q.trim().is_empty())
    };
    if let Some(tool) =
        tool.filter(|t| (*t != SHELL_TOOL || command.is_none()) && !leftover(&plan.args))
    {
        let mut arguments = match plan.args {
            Some(Value::Object(map)) => Value::Object(map),
            None | Some(Value::Null) => json!({}),
            Some(other) => {
                return Err(format!("\"args\" must be a JSON object, not {other}."));
            }
        };
        // A small model puts the question where it puts everything: in "command".
        if tool == ASK_USER && arguments.get("question").is_none() {
            if let Some(question) = question {
                arguments = json!({ "question": question });
            }
        }
        return Ok(Step::Calls(vec![ToolCall {
            id: id.to_string(),
            name: tool.to_string(),
            arguments,
        }]));
    }
    // A non-empty command always runs, even with done: true (only an empty command ends).
    // (Written as a call of a tool, it is mended into that call: `repair`.)
    if let Some(command) = command {
        return Ok(Step::Calls(vec![ToolCall {
            id: id.to_string(),
            name: SHELL_TOOL.to_string(),
            arguments: json!({ "command": command }),
        }]));
    }
    // No command, not done, and a question in "reply": the model is asking the user
    // (seen: a 1.5B model told to ask wrote its question there, then guessed).
    let reply = plan.reply.as_deref().map(str::trim).unwrap_or_default();
    if plan.done != Some(true) && reply.ends_with('?') {
        return Ok(Step::Calls(vec![ToolCall {
            id: id.to_string(),
            name: ASK_USER.to_string(),
            arguments: json!({ "question": reply }),
        }]));
    }
    match plan.done {
        Some(true) => Ok(Step::Final(plan.reply.unwrap_or_default())),
        // A small model's answer has no "done" (`short_plan_schema`).
        None if !reply.is_empty() && tool.is_none() => Ok(Step::Final(reply.to_string())),
        _ => Err(
            "Your plan had an empty command and done was not true. Either give a command \
                  to run, or set done to true with the reply for the user."
                .into(),
        ),
    }
}

/// The question in a command written as a call, `ask_user("Which file?")` or
/// `ask_user(question='Which file?')`; `None` for anything else.
pub(super) fn question_in(command: &str) -> Option<&str> {
    let inner = command
        .trim()
        .strip_prefix(ASK_USER)?
        .trim_start()
        .strip_prefix('(')?
        .trim_end()
        .strip_suffix(')')?
        .trim();
    let inner = inner
        .strip_prefix("question")
        .map(|rest| rest.trim_start())
        .and_then(|rest| rest.strip_prefix('=').or_else(|| rest.strip_prefix(':')))
        .map_or(inner, str::trim_start);
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| inner.strip_prefix(*q)?.strip_suffix(*q))
        .unwrap_or(inner)
        .trim();
    (!unquoted.is_empty()).then_some(unquoted)
}

/// Finds a tool call written into plain text: a JSON object (bare, in a ``` fence, or in
/// `<tool_call>` tags) naming a known tool with `name`/`tool`/`function` and carrying
/// `arguments`/`args`/`parameters`.
pub fn leaked_tool_call(text: &str, known: &[&str], id: &str) -> Option<ToolCall> {
    json_objects(text).into_iter().find_map(|value| {
        let obj = value.as_object()?;
        let name = ["name", "tool", "function"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str))?;
        if !known.contains(&name) {
            return None;
        }
        let arguments = ["arguments", "args", "parameters"]
            .iter()
            .find_map(|k| obj.get(*k))
            .map(|a| match a {
                // Some models send arguments as a JSON string.
                Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
                other => other.clone(),
            })
            .filter(Value::is_object)?;
        Some(ToolCall {
            id: id.to_string(),
            name: name.to_string(),
            arguments,
        })
    })
}

/// Every top-level JSON object in `text`, in order: the whole text, fenced blocks, or
/// balanced `{...}` spans inside prose.
/// Openings (`{`) tried at most when looking for JSON objects in a reply.
const MAX_CANDIDATES: usize = 64;

fn json_objects(text: &str) -> Vec<Value> {
    let trimmed = text.trim();
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
        return vec![v];
    }
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    // Each candidate may scan to the end of the text: a bounded number of them keeps a
    // hostile reply (a megabyte of `{`) linear.
    let mut candidates = 0;
    while let Some(open) = text[start..].find('{').map(|i| i + start) {
        candidates += 1;
        if candidates > MAX_CANDIDATES {
            break;
        }
        match balanced_end(bytes, open) {
            Some(end) => {
                if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&text[open..=end]) {
                    found.push(v);
                    start = end + 1;
                } else {
                    start = open + 1;
                }
            }
            None => break,
        }
    }
    found
}

/// Index of the `}` closing the `{` at `open`, skipping braces inside strings.
fn balanced_end(bytes: &[u8], open: usize) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::agent_loop::repair::{read, terminate_exec};

    #[test]
    fn a_question_written_as_a_command_is_asked() {
        let ask = |command: &str| {
            let text = json!({"command": command, "reasoning": "", "reply": "", "done": false});
            match read(&text.to_string(), "c1") {
                Ok(Step::Calls(calls)) => (calls[0].name.clone(), calls[0].arguments.clone()),
                other => panic!("{other:?}"),
            }
        };
        for command in [
            "ask_user('What would you like to name the new folder?')",
            "ask_user(\"What would you like to name the new folder?\")",
            "ask_user( question='What would you like to name the new folder?' )",
            "ask_user(question: \"What would you like to name the new folder?\")",
            "ask_user(What would you like to name the new folder?)",
        ] {
            assert_eq!(
                ask(command),
                (
                    "ask_user".to_string(),
                    json!({"question": "What would you like to name the new folder?"})
                ),
                "{command}"
            );
        }
        // An offer of help in any of the forms a question takes is the answer.
        for plan in [
            json!({"command": "ask_user('Hello! How can I assist you today?')"}),
            json!({"command": "", "tool": "ask_user", "args": {"question": "Hi! How can I help you?"}}),
            json!({"command": "", "reply": "What can I do for you?", "done": false}),
            json!({"command": "How may I help you today?", "tool": "ask_user"}),
        ] {
            match read(&plan.to_string(), "c9") {
                Ok(Step::Final(answer)) => assert!(answer.ends_with('?'), "{answer}"),
                other => panic!("{plan}: {other:?}"),
            }
        }
        // The bare name with no question anywhere is no call (a corrective hint), not a
        // program to run.
        let bare = json!({"command": "ask_user", "reply": "", "done": false});
        assert!(read(&bare.to_string(), "c0").is_err());
        for shell in [
            "ask_user()",
            "ask_users('x')",
            "echo ask_user('x')",
            "ask_user('')",
        ] {
            assert_eq!(ask(shell).0, SHELL_TOOL, "{shell}");
        }
        // The tool named, the question in the command.
        let text = json!({"command": "Which file?", "tool": "ask_user", "reasoning": "", "reply": "", "done": false});
        let Ok(Step::Calls(calls)) = read(&text.to_string(), "c2") else {
            panic!("not a call")
        };
        assert_eq!(calls[0].arguments, json!({"question": "Which file?"}));
        // A leftover "tool" beside a shell line: the line runs.
        let text = json!({"command": "mkdir ~/projects", "tool": "ask_user", "reasoning": "", "reply": "", "done": false});
        let Ok(Step::Calls(calls)) = read(&text.to_string(), "c3") else {
            panic!("not a call")
        };
        assert_eq!(calls[0].name, SHELL_TOOL);
        assert_eq!(calls[0].arguments, json!({"command": "mkdir ~/projects"}));
        // "tool": "ask_user" with empty args and no command: the plan's own fields count.
        let text = json!({"command": "", "tool": "ask_user", "args": {}, "reasoning": "", "reply": "50 GB free", "done": true});
        assert_eq!(
            read(&text.to_string(), "c4"),
            Ok(Step::Final("50 GB free".into()))
        );
        let text = json!({"command": "", "tool": "ask_user", "args": {"question": " "}, "reasoning": "", "reply": "", "done": false});
        assert!(read(&text.to_string(), "c5").is_err());
    }

    #[test]
    fn command_becomes_a_shell_call_and_done_ends() {
        let step = read(
            r#"{"command":"ls -la","reasoning":"look","reply":"","done":false}"#,
            "c1",
        );
        let Ok(Step::Calls(calls)) = step else {
            panic!("{step:?}")
        };
        assert_eq!(calls[0].name, "shell");
        assert_eq!(calls[0].arguments, json!({"command": "ls -la"}));
        let step = read(
            r#"{"command":"","reasoning":"","reply":"Zeta: done","done":true}"#,
            "c2",
        );
        assert_eq!(step, Ok(Step::Final("Zeta: done".into())));
    }

    #[test]
    fn fenced_json_and_prose_around_it_are_accepted() {
        let text = "Sure! Here is my plan:\n```json\n{\"command\": \"df -h\", \"reasoning\": \"{disk}\", \"reply\": \"\", \"done\": false}\n```";
        let Ok(Step::Calls(calls)) = read(text, "c") else {
            panic!()
        };
        assert_eq!(calls[0].arguments["command"], "df -h");
    }

    #[test]
    fn a_command_runs_even_when_done_is_true() {
        let step = read(
            r#"{"command":"rm x","reasoning":"","reply":"removed","done":true}"#,
            "c",
        );
        assert!(matches!(step, Ok(Step::Calls(_))));
    }

    #[test]
    fn tool_and_args_pick_another_tool() {
        let step = read(
            r#"{"command":"","reasoning":"","reply":"","done":false,"tool":"read_file","args":{"path":"/etc/hostname"}}"#,
            "c",
        );
        let Ok(Step::Calls(calls)) = step else {
            panic!()
        };
        assert_eq!(calls[0].name, "read_file");
        assert_eq!(calls[0].arguments["path"], "/etc/hostname");
    }

    #[test]
    fn unusable_replies_give_hints() {
        assert!(read("I think we should list files", "c")
            .unwrap_err()
            .contains("not a JSON object"));
        assert!(read(r#"{"command":"","done":false}"#, "c")
            .unwrap_err()
            .contains("empty command"));
        assert!(read(r#"{"command":5}"#, "c")
            .unwrap_err()
            .contains("plan format"));
    }

    #[test]
    fn the_schema_names_the_real_tools_or_is_shell_only() {
        let all = plan_schema(&["shell", "read_file", "mouse"]);
        assert_eq!(
            all["properties"]["tool"]["enum"],
            json!(["", "read_file", "mouse"])
        );
        let shell = plan_schema(&["shell"]);
        assert!(shell["properties"].get("tool").is_none());
        assert!(shell["properties"].get("args").is_none());
        assert_eq!(
            shell["required"],
            json!(["command", "reasoning", "reply", "done"])
        );
    }

    #[test]
    fn a_verdict_continues_with_its_command_or_confirms() {
        let go = parse_verdict(
            r#"{"checked":"counted, not written","next_command":"echo 2 > ~/n.txt","unable":""}"#,
            "v",
        );
        let Verdict::Continue(call) = go else {
            panic!("{go:?}")
        };
        assert_eq!(call.arguments["command"], "echo 2 > ~/n.txt");
        assert_eq!(
            parse_verdict(
                r#"{"checked":"all shown","next_command":"none","unable":"N/A"}"#,
                "v"
            ),
            Verdict::Finished { unable: None }
        );
        assert_eq!(
            parse_verdict(
                r#"{"checked":"","next_command":"","unable":"there is no printer"}"#,
                "v"
            ),
            Verdict::Finished {
                unable: Some("there is no printer".into())
            }
        );
        assert_eq!(
            parse_verdict("garbled", "v"),
            Verdict::Finished { unable: None }
        );
        assert_eq!(
            parse_verdict(r#"{"checked":"false","next_command":"","unable":""}"#, "v"),
            Verdict::Unfinished
        );
    }

    #[test]
    fn hostile_braces_are_searched_in_bounded_work() {
        let nested = format!("{}{}", "{".repeat(1 << 20), "}".repeat(1 << 20));
        assert!(json_objects(&nested).is_empty());
        let pairs = "{x}".repeat(1 << 18);
        assert!(json_objects(&pairs).is_empty());
        assert!(leaked_tool_call(&nested, &["shell"], "c").is_none());
    }

    #[test]
    fn leaked_calls_are_recognised_in_text() {
        let known = ["shell", "read_file"];
        let text = "I'll run it.\n```json\n{\"name\": \"shell\", \"arguments\": {\"command\": \"uptime\"}}\n```";
        let call = leaked_tool_call(text, &known, "x").expect("call");
        assert_eq!(call.name, "shell");
        assert_eq!(call.arguments["command"], "uptime");
        let tagged = "<tool_call>{\"name\":\"read_file\",\"arguments\":\"{\\\"path\\\":\\\"/a\\\"}\"}</tool_call>";
        assert_eq!(
            leaked_tool_call(tagged, &known, "x")
                .expect("call")
                .arguments["path"],
            "/a"
        );
        assert!(
            leaked_tool_call("{\"name\": \"rm_rf\", \"arguments\": {}}", &known, "x").is_none()
        );
        assert!(leaked_tool_call("The answer is {42}.", &known, "x").is_none());
    }

    /// Families of find clauses cut short by JSON escaping get their terminator back;
    /// terminated clauses and commands with other backslashes are left as written.
    #[test]
    fn a_find_exec_clause_cut_short_gets_its_semicolon_back() {
        let mut fixed = 0;
        for find in [
            "find ~/logs -name '*.log'",
            "find . -type f",
            "find /tmp -mtime +7",
        ] {
            for action in ["-exec", "-execdir", "-ok", "-okdir"] {
                for program in ["mv {} ~/archive/", "rm {}", "wc -l {}", "grep -l ERROR {}"] {
                    for after in ["", " && ls ~/archive", " ; echo done"] {
                        let whole = format!("{find} {action} {program} \\;{after}");
                        // One backslash, two, three, or two with the semicolon.
                        for end in ["\\", "\\\\", "\\\\\\", "\\\\;"] {
                            let cut = format!("{find} {action} {program} {end}{after}");
                            assert_eq!(terminate_exec(&cut), whole, "{cut}");
                            fixed += 1;
                        }
                        assert_eq!(terminate_exec(&whole), whole, "{whole}");
                    }
                }
            }
        }
        assert_eq!(fixed, 576);
        let untouched = [
            "find . -exec rm {} +",
            "find . -exec rm {} ';'",
            "find . -exec rm {}\\; -print",
            "echo a \\",
            "grep -E 'a\\|b' file",
            "printf '%s\\n' x",
            "ls \\ ",
            "mkdir -p ~/archive && mv ~/logs/*.log ~/archive/",
        ];
        for command in untouched {
            assert_eq!(terminate_exec(command), command);
        }
        // A question in "reply" of a plan that is not done, and nothing to run, is asked.
        for (plan, asks) in [
            (
                r#"{"command": "", "done": false, "reply": "Which folder do you mean?"}"#,
                true,
            ),
            (
                r#"{"command": "", "done": true, "reply": "Which folder do you mean?"}"#,
                false,
            ),
            (
                r#"{"command": "ls", "done": false, "reply": "Which folder?"}"#,
                false,
            ),
            (
                r#"{"command": "", "done": false, "reply": "I will look."}"#,
                false,
            ),
            (
                r#"{"command": "ask_user", "done": false, "reply": "Which folder do you mean?"}"#,
                true,
            ),
            (
                r#"{"command": "ask_user", "args": {"question": "Which folder do you mean?"}, "reply": "", "done": false}"#,
                true,
            ),
        ] {
            let step = read(plan, "c1");
            let asked = matches!(&step, Ok(Step::Calls(c)) if c[0].name == "ask_user"
                && c[0].arguments["question"] == "Which folder do you mean?");
            assert_eq!(asked, asks, "{plan}: {step:?}");
        }
        // Through the planner: the shell call carries the completed clause.
        let plan = r#"{"command": "find ~/logs -name '*.log' -exec mv {} ~/archive/ \\", "reply": "", "done": false}"#;
        match read(plan, "c1") {
            Ok(Step::Calls(calls)) => assert_eq!(
                calls[0].arguments["command"],
                "find ~/logs -name '*.log' -exec mv {} ~/archive/ \\;"
            ),
            other => panic!("{other:?}"),
        }
    }
}

#[cfg(test)]
mod cut_off {
    use super::*;
    #[allow(unused_imports)]
    use crate::agent_loop::repair::{read, terminate_exec};

    #[test]
    fn a_reply_cut_off_by_the_token_cap_is_read_up_to_where_it_stops() {
        let cases = [
            (
                "{\n  \"reply\": \"The file does not exist. I would need",
                Some(
                    "The file does not exist. I would need … (the model's answer was cut off here)",
                ),
            ),
            (
                "{\"reply\":\"Line one\\nsaid \\\"hi\\\" \\u00e9t\\u00e9",
                Some("Line one\nsaid \"hi\" été … (the model's answer was cut off here)"),
            ),
            ("{\"reply\": \"done\"", Some("done")),
            ("{\"reply\": \"   ", None),
            ("{\"reply\": 3", None),
            ("{\"command\": \"ls", None),
            ("no json at all", None),
            // A dangling escape or a \u cut short loses only itself.
            (
                "{\"reply\": \"a\\",
                Some("a … (the model's answer was cut off here)"),
            ),
            (
                "{\"reply\": \"a\\u00",
                Some("a … (the model's answer was cut off here)"),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(cut_off_reply(text).as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn the_answer_only_schema_bounds_its_reply() {
        let schema = answer_schema();
        assert_eq!(
            schema["properties"]["reply"]["maxLength"],
            serde_json::json!(ANSWER_MAX_CHARS)
        );
    }
}

/// Fuzzing the planner-output parsers: any text the model sends gets a step, a hint or a
/// verdict; no panic, no hang (a fixed number of cases).
#[cfg(test)]
mod fuzz {
    use super::*;
    #[allow(unused_imports)]
    use crate::agent_loop::repair::{read, terminate_exec};
    use proptest::prelude::*;

    const JSONISH: &str = "[a-z{}\\[\\]\":,\\\\ \\n0-9`<>/_-]{0,300}";

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn any_reply_is_parsed_without_a_panic(text in JSONISH) {
            let _ = read(&text, "c");
            let _ = parse_verdict(&text, "c");
            let _ = leaked_tool_call(&text, &["shell", "read_file"], "c");
            let _ = reply_of(&text);
            let _ = cut_off_reply(&text);
        }

        /// Any prefix of a reply object gives back a prefix of its reply, never JSON.
        #[test]
        fn a_cut_off_reply_is_a_prefix_of_the_reply(reply in "[ -~éü\n\t\"\\\\]{1,80}", cut in 0usize..200) {
            let whole = format!("{{\n  \"reply\": {}\n}}", serde_json::json!(reply));
            let end = whole.char_indices().map(|(i, _)| i).find(|i| *i >= cut.min(whole.len())).unwrap_or(whole.len());
            if let Some(got) = cut_off_reply(&whole[..end]) {
                let got = got.trim_end_matches(" … (the model's answer was cut off here)");
                prop_assert!(reply.trim().starts_with(got.trim()) || reply.contains(got.trim()), "{got:?} of {reply:?}");
                prop_assert!(!got.contains("\"reply\""));
            }
        }

        #[test]
        fn plans_with_random_fields_are_parsed_without_a_panic(
            command in JSONISH, tool in "[a-z_]{0,12}", done in any::<bool>(), junk in JSONISH
        ) {
            let text = format!(
                "{junk}{{\"command\": {}, \"tool\": {}, \"args\": {{\"command\": {}}}, \"reply\": {}, \"done\": {done}}}{junk}",
                serde_json::json!(command), serde_json::json!(tool), serde_json::json!(command), serde_json::json!(junk)
            );
            let _ = read(&text, "c");
            let _ = leaked_tool_call(&format!("```json\n{text}\n```"), &["shell", tool.as_str()], "c");
        }

        /// The exec repair only ever adds semicolons (a word of backslashes, which this
        /// alphabet never joins, aside), and only to a command with a find action in it.
        #[test]
        fn the_exec_repair_only_adds_a_terminator(
            command in "((find|-exec|-ok|-execdir|\\\\|\\\\;|;|\\+|\\{\\}|mv|[a-z~/.*']{1,6}) ){0,14}"
        ) {
            let out = terminate_exec(&command);
            prop_assert_eq!(out.replace(';', ""), command.replace(';', ""));
            if !command.contains("-exec") && !command.contains("-ok") {
                prop_assert_eq!(out, command);
            }
        }
    }
}
