//! How the model is asked for steps, as one trait with two implementations, so the loop
//! never branches on it: `Native` (the provider's own tool calls) and `Planner` (seed
//! 000's JSON planner, `{command, reasoning, reply, done}` sent as structured output, for
//! models without tool calls). Each says how the conversation is written down and how a
//! reply is read.

use serde_json::Value;

use super::planner::{
    self, answer_schema, leaked_tool_call, parse_plan, plan_schema_for, verdict_schema, PlanForm,
    Step,
};
use super::prompt;
use crate::model::{Message, ModelReply, ResponseFormat, ToolCall, ToolSpec};
use crate::text::clip;

/// What a reply asks for, read by a protocol.
pub(super) struct Reading {
    /// The step, or the corrective hint for the model.
    pub step: Result<Step, String>,
    /// The answer the model wrote, kept for a final answer that comes back empty.
    pub wrote: Option<String>,
    /// Calls whose arguments were not a JSON object: not run, but put on record.
    pub malformed: Vec<ToolCall>,
}

impl Reading {
    fn step(step: Result<Step, String>) -> Self {
        Self {
            step,
            wrote: None,
            malformed: Vec::new(),
        }
    }
}

pub(super) trait StepProtocol: Send + Sync {
    /// The system prompt around the soul's text.
    fn system_prompt(&self, soul: &str) -> String;
    /// Whether the tool `name` is offered, of the task's tools `all`.
    fn offers(&self, name: &str, all: &[ToolSpec]) -> bool;
    /// How the next reply is asked for; `verdict`: it answers a check.
    fn format(&self, verdict: bool) -> ResponseFormat;
    /// How a reply that may only answer is asked for (no tools, nothing to run).
    fn answer_format(&self) -> ResponseFormat;
    /// The answer in such a reply.
    fn read_answer(&self, text: &str) -> String;
    /// Whether reply text streams to the chat as it comes (the planner's is JSON).
    fn streams_text(&self) -> bool;
    /// Checks are answered with a verdict (see `finish`).
    fn answers_checks_with_verdicts(&self) -> bool;
    /// The assistant's turn that asked for `calls`.
    fn assistant_turn(&self, text: String, calls: &[ToolCall]) -> Message;
    /// A call's result as the model reads it; `mark` is ✓, ✗ or ↻.
    fn result_turn(&self, call: &ToolCall, mark: &str, content: String) -> Message;
    /// What `reply` asks for; `next_id` names a call the protocol has to make up.
    fn read(
        &self,
        reply: &ModelReply,
        tool_names: &[&str],
        next_id: &mut dyn FnMut() -> String,
    ) -> Reading;
}

/// A call's arguments in a few words: the command itself, or the arguments as JSON.
pub(super) fn short_args(arguments: &Value) -> String {
    match arguments.get("command").and_then(Value::as_str) {
        Some(command) => clip(command, 120),
        None => clip(&arguments.to_string(), 120),
    }
}

/// The provider's own tool calls.
pub(super) struct Native;

impl StepProtocol for Native {
    fn system_prompt(&self, soul: &str) -> String {
        prompt::native_prompt(soul)
    }
    fn offers(&self, name: &str, all: &[ToolSpec]) -> bool {
        all.iter().any(|t| t.name == name)
    }
    fn format(&self, _verdict: bool) -> ResponseFormat {
        ResponseFormat::Native
    }
    fn answer_format(&self) -> ResponseFormat {
        ResponseFormat::Text
    }
    fn read_answer(&self, text: &str) -> String {
        text.trim().to_string()
    }
    fn streams_text(&self) -> bool {
        true
    }
    fn answers_checks_with_verdicts(&self) -> bool {
        false
    }
    fn assistant_turn(&self, text: String, calls: &[ToolCall]) -> Message {
        Message::assistant_calls(text, calls.to_vec())
    }
    fn result_turn(&self, call: &ToolCall, _mark: &str, content: String) -> Message {
        Message::tool_result(call.id.clone(), content)
    }
    fn read(
        &self,
        reply: &ModelReply,
        tool_names: &[&str],
        next_id: &mut dyn FnMut() -> String,
    ) -> Reading {
        if reply.tool_calls.is_empty() {
            // A call leaked into the text (fenced JSON, `<tool_call>`) still runs.
            let id = next_id();
            return Reading::step(Ok(match leaked_tool_call(&reply.text, tool_names, &id) {
                Some(call) => Step::Calls(vec![call]),
                None => Step::Final(reply.text.clone()),
            }));
        }
        let malformed: Vec<ToolCall> = reply
            .tool_calls
            .iter()
            .filter(|c| !c.arguments.is_object())
            .cloned()
            .collect();
        let Some(first) = malformed.first() else {
            return Reading::step(Ok(Step::Calls(reply.tool_calls.clone())));
        };
        let hint = format!(
            "The arguments of your `{}` call were not a JSON object ({}). Call it again with valid JSON arguments.",
            first.name,
            clip(&first.arguments.to_string(), 200)
        );
        Reading {
            step: Err(hint),
            wrote: None,
            malformed,
        }
    }
}

/// Seed 000's JSON planner, for models without tool calls.
pub(super) struct Planner {
    /// The plan's schema, its tool names fixed at the start of the task.
    schema: Value,
    /// The tools it offers.
    offered: Vec<ToolSpec>,
    /// How the plan is written (see `prompt::planner_prompt`).
    form: PlanForm,
}

impl Planner {
    pub fn new(offered: Vec<ToolSpec>, form: PlanForm) -> Self {
        Self {
            schema: plan_schema_for(&offered, form),
            offered,
            form,
        }
    }
}

impl StepProtocol for Planner {
    fn system_prompt(&self, soul: &str) -> String {
        prompt::planner_prompt(soul, &self.offered, self.form)
    }
    fn offers(&self, name: &str, _all: &[ToolSpec]) -> bool {
        self.offered.iter().any(|t| t.name == name)
    }
    fn format(&self, verdict: bool) -> ResponseFormat {
        if verdict {
            ResponseFormat::JsonSchema(verdict_schema())
        } else {
            ResponseFormat::JsonSchema(self.schema.clone())
        }
    }
    fn answer_format(&self) -> ResponseFormat {
        ResponseFormat::JsonSchema(answer_schema())
    }
    /// The `reply` of the JSON, or a final step written in the plan's form, or the text
    /// as it is (a server that ignored the schema).
    fn read_answer(&self, text: &str) -> String {
        if let Some(reply) = planner::reply_of(text) {
            return reply;
        }
        // `{"reply": ""}` is no answer, not an answer of JSON text.
        if serde_json::from_str::<Value>(text.trim()).is_ok_and(|v| v.get("reply").is_some()) {
            return String::new();
        }
        match parse_plan(text, "answer") {
            Ok(Step::Final(answer)) => answer,
            // JSON cut off inside its reply: the part written, not the raw JSON.
            _ => planner::cut_off_reply(text).unwrap_or_else(|| text.trim().to_string()),
        }
    }
    fn streams_text(&self) -> bool {
        false
    }
    fn answers_checks_with_verdicts(&self) -> bool {
        true
    }
    /// A small model's step is kept as the plan it ran (`planner::plan_of`), not as its
    /// text; an answer, and a larger model's steps, as written.
    fn assistant_turn(&self, text: String, calls: &[ToolCall]) -> Message {
        match calls {
            [call] if self.form == PlanForm::Short => Message::assistant(planner::plan_of(call)),
            _ => Message::assistant(text),
        }
    }
    fn result_turn(&self, call: &ToolCall, mark: &str, content: String) -> Message {
        // The call itself is not repeated: the model's own step just above names it
        // (measured: ~25 tokens a step the local model had to read again); nor, after ✓,
        // the shell's exit code 0 at the top of the output.
        let content = if mark == "✓" {
            content.replacen("\nexit code 0\nstdout:\n", "\n", 1)
        } else {
            content
        };
        // Other tools keep their arguments: without them, on a window task the model
        // clicked the text field it had typed into, with "Save" as the text.
        if call.name == "shell" {
            Message::user(format!("{mark} {}\n{content}", call.name))
        } else {
            Message::user(format!(
                "{mark} {} {}\n{content}",
                call.name,
                short_args(&call.arguments)
            ))
        }
    }
    fn read(
        &self,
        reply: &ModelReply,
        _tool_names: &[&str],
        next_id: &mut dyn FnMut() -> String,
    ) -> Reading {
        let id = next_id();
        Reading {
            wrote: planner::reply_of(&reply.text),
            step: super::repair::read(&reply.text, &id),
            malformed: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::agent_loop::repair::{read, terminate_exec};
    use crate::model::Usage;
    use serde_json::json;

    fn reply(text: &str, calls: Vec<ToolCall>) -> ModelReply {
        ModelReply {
            text: text.into(),
            tool_calls: calls,
            usage: Usage::default(),
        }
    }

    fn shell(arguments: Value) -> ToolCall {
        ToolCall {
            id: "c1".into(),
            name: "shell".into(),
            arguments,
        }
    }

    fn ids() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("call_{n}")
        }
    }

    #[test]
    fn native_reads_calls_answers_leaked_calls_and_malformed_arguments() {
        let names = ["shell"];
        let mut next = ids();
        let r = Native.read(
            &reply("", vec![shell(json!({"command": "ls"}))]),
            &names,
            &mut next,
        );
        assert_eq!(
            r.step,
            Ok(Step::Calls(vec![shell(json!({"command": "ls"}))]))
        );
        let r = Native.read(&reply("All done.", vec![]), &names, &mut next);
        assert_eq!(r.step, Ok(Step::Final("All done.".into())));
        let leaked = "```json\n{\"name\": \"shell\", \"arguments\": {\"command\": \"df -h\"}}\n```";
        let r = Native.read(&reply(leaked, vec![]), &names, &mut next);
        assert!(
            matches!(&r.step, Ok(Step::Calls(c)) if c[0].name == "shell"),
            "{:?}",
            r.step
        );
        let r = Native.read(&reply("", vec![shell(json!("ls"))]), &names, &mut next);
        assert!(r.step.is_err_and(|hint| hint.contains("not a JSON object")));
        assert_eq!(r.malformed.len(), 1);
    }

    #[test]
    fn a_terse_planner_asks_for_no_reasoning_in_its_prompt_or_schema() {
        let shell = ToolSpec {
            name: "shell".into(),
            description: "run".into(),
            parameters: json!({"type": "object"}),
        };
        let terse = Planner::new(vec![shell.clone()], PlanForm::Short);
        // A small model on a window: the four keys without "reasoning".
        let plain = Planner::new(vec![shell.clone()], PlanForm::Plain);
        assert!(plain
            .system_prompt("soul")
            .contains(r#"You: {"command": "df -h /", "reply": "", "done": false}"#));
        let ResponseFormat::JsonSchema(plain) = plain.format(false) else {
            panic!("a schema")
        };
        assert_eq!(plain["required"], json!(["command", "reply", "done"]));
        let full = Planner::new(vec![shell], PlanForm::Reasoned);
        assert!(!terse.system_prompt("soul").contains("reasoning"));
        assert!(full
            .system_prompt("soul")
            .contains("\"reasoning\": \"Check the root filesystem.\""));
        let ResponseFormat::JsonSchema(schema) = terse.format(false) else {
            panic!("a schema")
        };
        assert!(!schema.to_string().contains("reasoning"));
        let prompt = terse.system_prompt("soul");
        assert!(
            prompt.contains(r#"You: {"command": "df -h /"}"#),
            "{prompt}"
        );
        assert!(prompt
            .contains(r#"You: {"command": "", "reply": "You have 60 GB free of 100 GB on /."}"#));
        assert!(!prompt.contains("\"done\""), "{prompt}");
    }

    /// A small model's plan is one of the short forms, and nothing else: a command alone, an
    /// answer after an empty command, or (with other tools) a tool call; never a reply
    /// beside a command to run.
    #[test]
    fn a_terse_plan_is_a_command_a_reply_or_a_tool_call() {
        let schema = crate::agent_loop::planner::plan_schema_with(
            &["shell", "ask_user", "update_settings"],
            PlanForm::Short,
        );
        let forms = schema["anyOf"].as_array().expect("alternatives");
        let keys: Vec<Vec<String>> = forms
            .iter()
            .map(|f| {
                assert_eq!(f["additionalProperties"], json!(false));
                f["properties"]
                    .as_object()
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            keys,
            vec![
                vec!["command"],
                vec!["command", "reply"],
                vec!["args", "tool"]
            ]
        );
        assert_eq!(forms[1]["properties"]["command"]["const"], json!(""));
        // ask_user is asked as a command; only the other tools are named.
        assert_eq!(
            forms[2]["properties"]["tool"]["enum"],
            json!(["update_settings"])
        );
        let shell_only =
            crate::agent_loop::planner::plan_schema_with(&["shell", "ask_user"], PlanForm::Short);
        assert_eq!(shell_only["anyOf"].as_array().map(Vec::len), Some(2));
        // Each short form reads as the step it is.
        for (text, want) in [
            (r#"{"command": "nproc"}"#, "call shell"),
            (r#"{"command": "", "reply": "You have 2 cores."}"#, "final"),
            (r#"{"command": "ask_user('Which file?')"}"#, "call ask_user"),
            (
                r#"{"args": {"key": "x"}, "tool": "update_settings"}"#,
                "call update_settings",
            ),
            (
                r#"{"command": "", "reply": "Which file do you mean?"}"#,
                "call ask_user",
            ),
        ] {
            let got = match read(text, "c").expect(text) {
                Step::Final(_) => "final".to_string(),
                Step::Calls(calls) => format!("call {}", calls[0].name),
            };
            assert_eq!(got, want, "{text}");
        }
    }

    /// What a small model wrote beside its command (a guessed answer, pretty-printed keys)
    /// does not stay in the history: the step is kept as the plan it ran.
    #[test]
    fn a_terse_step_is_kept_as_the_plan_it_ran() {
        let spec = ToolSpec {
            name: "shell".into(),
            description: "run".into(),
            parameters: json!({"type": "object"}),
        };
        let guess = "{\n  \"command\": \"nproc\",\n  \"done\": true,\n  \"reply\": \"8 cores\"\n}";
        let call = shell(json!({"command": "nproc"}));
        let terse = Planner::new(vec![spec.clone()], PlanForm::Short);
        let kept = terse.assistant_turn(guess.into(), std::slice::from_ref(&call));
        assert_eq!(kept.content, r#"{"command": "nproc"}"#);
        let asked = ToolCall {
            id: "c2".into(),
            name: "ask_user".into(),
            arguments: json!({"question": "Which \"file\"?"}),
        };
        let kept = terse.assistant_turn(String::new(), std::slice::from_ref(&asked));
        assert_eq!(
            kept.content,
            r#"{"command": "ask_user('Which \"file\"?')"}"#
        );
        // The kept form reads back as the same question.
        let Ok(Step::Calls(again)) = read(&kept.content, "c3") else {
            panic!("{}", kept.content)
        };
        assert_eq!(again[0].name, "ask_user");
        assert_eq!(again[0].arguments["question"], "Which \"file\"?");
        // A larger model's text stays as it wrote it.
        let full = Planner::new(vec![spec], PlanForm::Reasoned);
        let kept = full.assistant_turn(guess.into(), std::slice::from_ref(&call));
        assert_eq!(kept.content, guess);
    }

    #[test]
    fn the_planner_reads_its_json_and_keeps_what_it_wrote() {
        let p = Planner::new(
            vec![ToolSpec {
                name: "shell".into(),
                description: "run".into(),
                parameters: json!({"type": "object"}),
            }],
            PlanForm::Reasoned,
        );
        let mut next = ids();
        let step = r#"{"command": "df -h", "reasoning": "disk", "reply": "", "done": false}"#;
        let r = p.read(&reply(step, vec![]), &[], &mut next);
        assert!(matches!(&r.step, Ok(Step::Calls(c)) if c[0].arguments["command"] == "df -h"));
        let done = r#"{"command": "", "reasoning": "", "reply": "42 GB free", "done": true}"#;
        let r = p.read(&reply(done, vec![]), &[], &mut next);
        assert_eq!(r.step, Ok(Step::Final("42 GB free".into())));
        assert_eq!(r.wrote.as_deref(), Some("42 GB free"));
        assert!(p
            .read(&reply("not json", vec![]), &[], &mut next)
            .step
            .is_err());
        assert!(matches!(p.format(true), ResponseFormat::JsonSchema(s) if s != p.schema));
        let turn = p.result_turn(&shell(json!({"command": "df"})), "✓", "42G".into());
        assert_eq!(turn.content, "✓ shell\n42G");
        let wrapped = "<untrusted_data source=\"shell\">\nexit code 0\nstdout:\n42G\nexit code 0\nstdout:\n\n</untrusted_data>";
        let turn = p.result_turn(&shell(json!({"command": "df"})), "✓", wrapped.into());
        assert_eq!(
            turn.content,
            "✓ shell\n<untrusted_data source=\"shell\">\n42G\nexit code 0\nstdout:\n\n</untrusted_data>"
        );
        let failed =
            "<untrusted_data source=\"shell\">\nexit code 1\nstdout:\nx\n</untrusted_data>";
        let turn = p.result_turn(&shell(json!({"command": "df"})), "✗", failed.into());
        assert!(
            turn.content.contains("exit code 1\nstdout:\nx"),
            "{}",
            turn.content
        );
    }
}
