//! Requests about a window, for a model that reads the screen as text: the loop reads the
//! window (`ui_outline`) before the model's first step, and an answer given before anything
//! was done in the window goes back once; other requests are left alone.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::scripted::{call, open_spec, run_given, settings, text, Given, Person, Ran};
use crate::agent::AgentOutcome;
use crate::model::ToolSpec;
use crate::policy::PermissionMode::Auto;
use crate::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

const OUTLINE: &str = "Window \"Zeta form\":\n[1] text \"Name\" = \"\"\n[2] push button \"Save\"";

type Calls = Arc<Mutex<Vec<(String, Value)>>>;

/// `ui_outline` (reads, and what it reads is not the user's) or `ui_act` (changes things),
/// recording its calls.
struct Ui {
    name: &'static str,
    calls: Calls,
    /// A check's send-back asked the tool to narrow its next call to the request.
    narrowed: Arc<Mutex<bool>>,
}

impl Tool for Ui {
    fn spec(&self) -> ToolSpec {
        open_spec(self.name)
    }
    fn has_side_effects(&self) -> bool {
        self.name == "ui_act"
    }
    /// The value written as the action on the name field, with a placeholder as the
    /// text, is its set_text (as the element tool reads it).
    fn read_as(&self, arguments: &Value, _request: &str) -> Option<(Value, String)> {
        let placeholder = arguments["element"] == 1 && arguments["text"] == "text";
        (self.name == "ui_act" && placeholder).then(|| {
            let text = arguments["action"].clone();
            (
                json!({"action": "set_text", "element": 1, "text": text}),
                "read as set_text".to_string(),
            )
        })
    }
    /// Narrowed to the request: Save alone (what it names and is not done).
    fn narrow_to_request(&self, _request: &str) {
        *self.narrowed.lock().unwrap() = true;
    }
    /// After the outline was read: the name field takes text, Save is pressed; once
    /// narrowed, only Save, until the next act.
    fn arguments_now(&self) -> Option<Value> {
        let read = self
            .calls
            .lock()
            .unwrap()
            .iter()
            .any(|(n, _)| n == "ui_outline");
        let press = json!({"type": "object", "properties": {"action": {"const": "press"},
                           "element": {"enum": [2]}},
                           "required": ["action", "element"], "additionalProperties": false});
        if self.name == "ui_act" && *self.narrowed.lock().unwrap() {
            return Some(press);
        }
        (self.name == "ui_act" && read).then(|| {
            json!({"anyOf": [
                {"type": "object", "properties": {"action": {"const": "set_text"},
                 "element": {"enum": [1]}, "text": {"type": "string"}},
                 "required": ["action", "element", "text"], "additionalProperties": false},
                {"type": "object", "properties": {"action": {"const": "press"},
                 "element": {"enum": [2]}},
                 "required": ["action", "element"], "additionalProperties": false}
            ]})
        })
    }
    fn taints(&self, _arguments: &Value, _output: &ToolOutput) -> bool {
        self.name == "ui_outline"
    }
    /// A press of element 7 is held, as the element tool holds a press past what the
    /// request names: the next step must call.
    fn call_next(&self) -> bool {
        self.name == "ui_act" && arguments_element(&self.calls) == Some(7)
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        *self.narrowed.lock().unwrap() = false;
        self.calls
            .lock()
            .unwrap()
            .push((self.name.to_string(), arguments));
        use crate::tool::Shown;
        // What each element's act does in the form, as (ok, printed, element, action,
        // intended, shown, request_met, closed).
        let out = if self.name == "ui_outline" {
            ToolOutput::ok(OUTLINE, "read \"Zeta form\": 2 elements")
        } else {
            let (ok, printed, element, action, intended, shown, met, closed) =
                match arguments_element(&self.calls) {
                    // A number of the window after it closed.
                    Some(9) => (
                        false,
                        "ui_act: element 9 in \"Zeta form\" is gone",
                        "button \"Cancel\"",
                        "press",
                        "press it",
                        Shown::No("it was not done: the window is gone".into()),
                        false,
                        false,
                    ),
                    // A press held for going past the request's field.
                    Some(7) => (
                        false,
                        "ui_act: not pressed yet: the request names [1] text \"Name\" before button \"OK\"",
                        "button \"OK\"",
                        "press",
                        "press it",
                        Shown::No("it was not done: not pressed yet".into()),
                        false,
                        false,
                    ),
                    // Apply pressed: everything the request names acted on, the window
                    // still open.
                    Some(5) => (
                        true,
                        "done; Apply pressed",
                        "push button \"Apply\"",
                        "press",
                        "press it",
                        Shown::Unclear("nothing changed that can be seen".into()),
                        true,
                        false,
                    ),
                    // Save pressed: everything the request names acted on, the window
                    // closed.
                    Some(2) => (
                        true,
                        "done; the window closed",
                        "push button \"Save\"",
                        "press",
                        "press it",
                        Shown::Yes("the window closed".into()),
                        true,
                        true,
                    ),
                    _ => (
                        true,
                        "done; [1] text \"Name\" = \"hello\"",
                        "text \"Name\"",
                        "set_text",
                        "set its text to \"hello\"",
                        Shown::Yes("[1] text \"Name\" = \"hello\"".into()),
                        false,
                        false,
                    ),
                };
            let mut out = if ok {
                ToolOutput::ok(printed, "acted")
            } else {
                ToolOutput::error(printed)
            };
            out.read_back = Some(Box::new(crate::tool::ReadBack {
                element: format!("{element} in \"Zeta form\""),
                window: "Zeta form".into(),
                action: action.into(),
                intended: intended.into(),
                shown,
                request_met: met,
                closed,
                left: None,
                app: String::new(),
                ocr: false,
                keyed: false,
                dropped: Vec::new(),
            }));
            out
        };
        Box::pin(async move { out })
    }
}

/// The arguments of the `ui_act` calls that ran, in order.
fn acts_of(calls: &[(String, Value)]) -> Vec<&Value> {
    calls
        .iter()
        .filter(|(n, _)| n == "ui_act")
        .map(|(_, a)| a)
        .collect()
}

/// The element of the last call recorded.
fn arguments_element(calls: &Calls) -> Option<u64> {
    calls.lock().unwrap().last()?.1.get("element")?.as_u64()
}

async fn window_task(
    message: &str,
    small: bool,
    replies: Vec<crate::model::ModelReply>,
) -> (Ran, Vec<(String, Value)>) {
    window_task_with(message, small, replies, Person::Approves).await
}

async fn window_task_with(
    message: &str,
    small: bool,
    replies: Vec<crate::model::ModelReply>,
    person: Person,
) -> (Ran, Vec<(String, Value)>) {
    window_task_in(settings(Auto), message, small, replies, person).await
}

async fn window_task_in(
    settings: crate::settings::Settings,
    message: &str,
    small: bool,
    replies: Vec<crate::model::ModelReply>,
    person: Person,
) -> (Ran, Vec<(String, Value)>) {
    let calls: Calls = Arc::default();
    let narrowed: Arc<Mutex<bool>> = Arc::default();
    let given = Given {
        message: message.into(),
        small,
        tools: ["ui_outline", "ui_act"]
            .into_iter()
            .map(|name| {
                Arc::new(Ui {
                    name,
                    calls: Arc::clone(&calls),
                    narrowed: Arc::clone(&narrowed),
                }) as Arc<dyn Tool>
            })
            .collect(),
        ..Given::default()
    };
    let ran = run_given(
        settings,
        replies.into_iter().map(Ok).collect(),
        person,
        given,
    )
    .await;
    let calls = calls.lock().unwrap().clone();
    (ran, calls)
}

#[tokio::test]
async fn a_small_model_starts_from_the_window_read_and_is_sent_back_when_it_answers_before_acting()
{
    let (ran, calls) = window_task(
        "type 'hello' into the Name field and press Save",
        true,
        vec![
            // Claims success with no call (seen with a 1.5B model).
            text("I typed hello into the Name field and pressed Save."),
            call(
                "c1",
                "ui_act",
                json!({"element": 1, "action": "set_text", "text": "hello"}),
            ),
            call("c2", "ui_act", json!({"element": 2, "action": "press"})),
            text("Typed hello into Name and pressed Save."),
        ],
    )
    .await;
    let first = ran.model.request_text(0);
    assert!(
        first.contains("[2] push button \"Save\""),
        "the first request carries the window's outline:\n{first}"
    );
    let second = ran.model.request_text(1);
    assert!(
        second.contains("Nothing has been done in the window yet"),
        "an answer before acting goes back:\n{second}"
    );
    let names: Vec<&str> = calls.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["ui_outline", "ui_act", "ui_act"]);
    assert_eq!(calls[1].1["text"], "hello");
    // The window is not the user's words: acting on it asked, even in auto mode.
    assert_eq!(ran.asked(), 2, "{:?}", ran.decisions());
    match ran.outcome {
        AgentOutcome::Done { reply } => assert!(reply.contains("pressed Save"), "{reply}"),
        other => panic!("the task did not finish: {other:?}"),
    }
}

/// Whether request `request`'s plan schema takes `plan`.
fn plan_takes(request: &crate::model::ModelRequest, plan: &Value) -> bool {
    match &request.format {
        crate::model::ResponseFormat::JsonSchema(schema) => {
            jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(plan))
        }
        other => panic!("no schema: {other:?}"),
    }
}

/// "type 'hello' into the Name field and press Save" for a planner given `replies`.
async fn planner_save_task(replies: Vec<crate::model::ModelReply>) -> Ran {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let request = "type 'hello' into the Name field and press Save";
    window_task_in(s, request, true, replies, Person::Approves)
        .await
        .0
}

/// A planner's answer, and its press of Save (element 2).
fn answer_and_press() -> (Value, Value) {
    (
        json!({"command": "", "reply": "I typed hello.", "done": true}),
        json!({"command": "", "reply": "", "done": false, "tool": "ui_act",
               "args": {"action": "press", "element": 2}}),
    )
}

/// In the planner protocol, the step after an answer went back for nothing done in the
/// window may only call a tool (no answer, no command); the step after that act may
/// answer again.
#[tokio::test]
async fn after_nothing_was_done_in_the_window_the_next_plan_calls_a_tool() {
    let (answer, press) = answer_and_press();
    let ran = planner_save_task(vec![
        text(&answer.to_string()),
        text(&press.to_string()),
        text(&answer.to_string()),
    ])
    .await;
    let requests = ran.model.requests.lock().unwrap();
    assert_eq!(requests.len(), 3, "answer, act, answer");
    let takes = |n: usize, plan: &Value| plan_takes(&requests[n], plan);
    let command = json!({"command": "ls", "reply": "", "done": false});
    assert!(takes(0, &answer) && takes(0, &command));
    assert!(
        !takes(1, &answer),
        "no answer in the step after the send-back"
    );
    assert!(!takes(1, &command), "no command either");
    assert!(takes(1, &press), "an act");
    // The act narrowed to what the request still needs (`Tool::narrow_to_request`).
    let typing = json!({"command": "", "reply": "", "done": false, "tool": "ui_act",
                        "args": {"action": "set_text", "element": 1, "text": "hello"}});
    assert!(takes(0, &typing) && !takes(1, &typing), "narrowed to Save");
    assert!(takes(2, &answer), "after the act, an answer again");
}

/// After a press the element tool held (`Tool::call_next`), the next plan may only call
/// a tool: the answer the model tried there is not taken; after the act, it is.
#[tokio::test]
async fn after_a_held_press_the_next_plan_calls_a_tool() {
    let (answer, press) = answer_and_press();
    let held = json!({"command": "", "reply": "", "done": false, "tool": "ui_act",
                      "args": {"action": "press", "element": 7}});
    let ran = planner_save_task(vec![
        text(&held.to_string()),
        text(&press.to_string()),
        text(&answer.to_string()),
    ])
    .await;
    let requests = ran.model.requests.lock().unwrap();
    assert_eq!(requests.len(), 3, "held press, act, answer");
    let takes = |n: usize, plan: &Value| plan_takes(&requests[n], plan);
    assert!(takes(0, &answer), "before it, an answer is a plan");
    assert!(
        !takes(1, &answer),
        "no answer in the step after the held press"
    );
    assert!(takes(1, &press), "an act");
    assert!(takes(2, &answer), "after the act, an answer again");
}

#[tokio::test]
async fn a_question_about_a_window_is_answered_from_the_read_without_being_sent_back() {
    let (ran, calls) = window_task(
        "what does the window say?",
        true,
        vec![text("It has a Name field and a Save button.")],
    )
    .await;
    assert_eq!(calls.len(), 1, "read once, by the loop: {calls:?}");
    match ran.outcome {
        AgentOutcome::Done { reply } => assert!(reply.contains("Save button"), "{reply}"),
        other => panic!("the task did not finish: {other:?}"),
    }
    assert_eq!(ran.model.requests.lock().unwrap().len(), 1);
}

/// Ticking a box is a change: an answer with nothing acted on goes back once, and then
/// the person reads that nothing was done (not the model's "Done.").
#[tokio::test]
async fn an_answer_without_acting_goes_back_once_and_then_says_nothing_was_done() {
    let (ran, calls) = window_task(
        "tick the Subscribe box",
        true,
        vec![
            text("Done."),
            text("There is no Subscribe box in this window, only Name and Save."),
        ],
    )
    .await;
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(ran.model.requests.lock().unwrap().len(), 2);
    match ran.outcome {
        AgentOutcome::Done { reply } => assert!(
            reply.starts_with(
                "Not done: nothing was done in the window; no act on it went through."
            ) && reply.contains("There is no Subscribe box"),
            "{reply}"
        ),
        other => panic!("the task did not finish: {other:?}"),
    }
}

#[tokio::test]
async fn requests_that_are_not_about_a_window_read_nothing() {
    for small in [true, false] {
        let (ran, calls) = window_task(
            "how much disk space is free?",
            small,
            vec![text("42 GB free.")],
        )
        .await;
        assert!(calls.is_empty(), "small={small}: {calls:?}");
        assert!(
            !ran.model.request_text(0).contains("push button"),
            "small={small}"
        );
        assert!(matches!(ran.outcome, AgentOutcome::Done { .. }));
    }
}

/// A command held back in a task about a window on screen says where the request is to be
/// done: in that window, with ui_act (seen: a 1.5B model starting the dialog again with
/// `zenity --entry …` instead of typing into it). The words are Zeta's: never the answer.
#[tokio::test]
async fn a_command_held_back_in_a_window_task_points_at_the_window() {
    let (ran, _calls) = window_task_with(
        "Type Lisbon into the City dialog and press OK",
        true,
        vec![
            call(
                "c1",
                "touch",
                json!({"command": "zenity --entry --title City --text Lisbon"}),
            ),
            text("Done."),
        ],
        Person::Denies,
    )
    .await;
    let second = ran.model.request_text(1);
    assert!(
        second.contains(crate::agent_loop::screen::WINDOW_INSTEAD),
        "the held command's result points at the window:\n{}",
        &second[second.len().saturating_sub(1500)..]
    );
    // Not in a task about a window: a held command says only that it was held.
    let (ran, _calls) = window_task_with(
        "Create the folder ~/zeta-held-test",
        true,
        vec![
            call("c1", "touch", json!({"command": "mkdir ~/zeta-held-test"})),
            text("Done."),
        ],
        Person::Denies,
    )
    .await;
    assert!(!ran
        .model
        .request_text(1)
        .contains(crate::agent_loop::screen::WINDOW_INSTEAD));
}

/// A command that fails before anything was done in the window points at the window too
/// (seen: `echo 'Verbose is now ticked.' > ~/.config/…` for "tick Verbose"); one that
/// fails after an act went through in the window (checking a file the application wrote)
/// is the model's own business.
#[tokio::test]
async fn a_command_that_fails_before_any_act_in_a_window_task_points_at_the_window() {
    let request = "Type Lisbon into the City field of the Zeta form window";
    let (ran, _calls) = window_task(
        request,
        true,
        vec![
            call("c1", "touch", json!({"command": "false > ~/.config/city"})),
            text("Done."),
        ],
    )
    .await;
    let second = ran.model.request_text(1);
    assert!(
        second.contains(crate::agent_loop::screen::WINDOW_INSTEAD),
        "{}",
        &second[second.len().saturating_sub(1500)..]
    );
    let (ran, _calls) = window_task(
        request,
        true,
        vec![
            call(
                "c1",
                "ui_act",
                json!({"element": 1, "action": "set_text", "text": "Lisbon"}),
            ),
            call("c2", "touch", json!({"command": "false ~/city.txt"})),
            text("Typed Lisbon into City."),
        ],
    )
    .await;
    let third = ran.model.request_text(2);
    assert!(
        third.contains("exit code 1") && !third.contains(crate::agent_loop::screen::WINDOW_INSTEAD),
        "{}",
        &third[third.len().saturating_sub(1500)..]
    );
}

/// In the planner protocol, once a call was held back there, the plan's grammar offers no
/// command: the model told once wrote the same command again (seen).
#[tokio::test]
async fn after_a_held_call_in_a_window_task_the_plan_offers_no_command() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let plan = |command: &str| {
        text(&json!({"command": command, "reasoning": "r", "reply": "", "done": false}).to_string())
    };
    let tool = json!({"command": "", "reasoning": "r", "reply": "", "done": false,
                      "tool": "touch", "args": {"command": "zenity --entry"}});
    let (ran, _calls) = window_task_in(
        s,
        "Type Lisbon into the City dialog and press OK",
        false,
        vec![text(&tool.to_string()), plan(""), plan("")],
        Person::Denies,
    )
    .await;
    let requests = ran.model.requests.lock().unwrap();
    let schema = |n: usize| match &requests[n].format {
        crate::model::ResponseFormat::JsonSchema(schema) => schema.clone(),
        other => panic!("no schema: {other:?}"),
    };
    assert_eq!(schema(0)["properties"]["command"]["type"], json!("string"));
    assert_eq!(schema(1)["properties"]["command"], json!({"const": ""}));
}

/// A small model's plan may call `ui_act` only as the elements read allow (the tool's
/// `arguments_now`), from the first step after the window was read; the spec's open
/// arguments before.
#[tokio::test]
async fn a_small_model_s_element_calls_are_bound_to_the_elements_read() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let answer = json!({"command": "", "reply": "Not done.", "done": true});
    let (ran, calls) = window_task_in(
        s,
        "Type hello into the Name field of the Zeta form window",
        true,
        vec![text(&answer.to_string()), text(&answer.to_string())],
        Person::Approves,
    )
    .await;
    assert_eq!(calls.first().map(|c| c.0.as_str()), Some("ui_outline"));
    let requests = ran.model.requests.lock().unwrap();
    let crate::model::ResponseFormat::JsonSchema(schema) = &requests[0].format else {
        panic!("no schema: {:?}", requests[0].format);
    };
    let valid = |args: Value| {
        let plan =
            json!({"command": "", "reply": "", "done": false, "tool": "ui_act", "args": args});
        jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(&plan))
    };
    assert!(valid(
        json!({"action": "set_text", "element": 1, "text": "hello"})
    ));
    assert!(valid(json!({"action": "press", "element": 2})));
    for wrong in [
        json!({"action": "hello", "element": 1}),
        json!({"action": "set_text", "element": 2, "text": "hello"}),
        json!({"action": "press", "element": 7}),
    ] {
        assert!(!valid(wrong.clone()), "{wrong}: {schema}");
    }
}

/// A call written inside a command is not run when its tool does not take it now (the
/// grammar never checked it): the model is told, and its next plan may only call a
/// tool, which the grammar binds. One it takes runs as before.
#[tokio::test]
async fn a_call_written_as_a_command_that_the_elements_do_not_take_is_not_run() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let plan = |command: &str| json!({"command": command, "reply": "", "done": false}).to_string();
    let set = json!({"command": "", "reply": "", "done": false, "tool": "ui_act",
                     "args": {"action": "set_text", "element": 1, "text": "hello"}});
    let answer = json!({"command": "", "reply": "Typed hello.", "done": true});
    let (ran, calls) = window_task_in(
        s,
        "type 'hello' into the Name field of the Zeta form window",
        true,
        vec![
            text(&plan("ui_act(1, 'hello')")),
            text(&set.to_string()),
            text(&plan("ui_act(2, 'press')")),
            text(&answer.to_string()),
        ],
        Person::Approves,
    )
    .await;
    let acts = acts_of(&calls);
    assert_eq!(
        acts,
        [
            &json!({"action": "set_text", "element": 1, "text": "hello"}),
            &json!({"element": 2, "action": "press"})
        ],
        "the unbound call did not run; the bound ones did"
    );
    let second = ran.model.request_text(1);
    assert!(second.contains("Not run: ui_act"), "{second}");
    let requests = ran.model.requests.lock().unwrap();
    let crate::model::ResponseFormat::JsonSchema(schema) = &requests[1].format else {
        panic!("no schema");
    };
    let command = json!({"command": "ls", "reply": "", "done": false});
    assert!(!jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(&command)));
}

/// A call written inside a command that its tool reads as one it takes now runs as read
/// (seen: `ui_act(3, 'ada@example.com', 'text')` on the Email field refused as unbound).
#[tokio::test]
async fn a_call_written_as_a_command_is_judged_as_its_tool_reads_it() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let plan = json!({"command": "ui_act(1, 'hello', 'text')", "reply": "", "done": false});
    let answer = json!({"command": "", "reply": "Typed hello.", "done": true});
    let (ran, calls) = window_task_in(
        s,
        "type 'hello' into the Name field of the Zeta form window",
        true,
        vec![text(&plan.to_string()), text(&answer.to_string())],
        Person::Approves,
    )
    .await;
    let acts = acts_of(&calls);
    assert_eq!(
        acts,
        [&json!({"action": "set_text", "element": 1, "text": "hello"})],
        "{}",
        ran.model.request_text(1)
    );
}

/// Once an act met the request in its window (Save pressed after the name was typed, the
/// window closed), an act at the window that fails ends the walk with what was done
/// there, from the read-backs; nothing more is called, and the model is not asked.
#[tokio::test]
async fn an_act_that_fails_after_the_request_was_met_in_the_window_ends_with_the_answer() {
    let (ran, calls) = window_task(
        "type 'hello' into the Name field and press Save",
        true,
        vec![
            call(
                "c1",
                "ui_act",
                json!({"element": 1, "action": "set_text", "text": "hello"}),
            ),
            call("c2", "ui_act", json!({"element": 2, "action": "press"})),
            // Wandering on (seen: presses at numbers of a dialog that had closed).
            call("c3", "ui_act", json!({"element": 9, "action": "press"})),
        ],
    )
    .await;
    let names: Vec<u64> = calls
        .iter()
        .filter_map(|(_, a)| a.get("element").and_then(Value::as_u64))
        .collect();
    assert_eq!(names, [1, 2, 9], "nothing after the failed act: {calls:?}");
    assert_eq!(
        ran.model.requests.lock().unwrap().len(),
        3,
        "not asked again"
    );
    match ran.outcome {
        AgentOutcome::Done { reply } => assert_eq!(
            reply,
            "Done in the window \"Zeta form\", which closed after the last of these:\n\
             - text \"Name\" in \"Zeta form\": set its text to \"hello\"\n\
             - push button \"Save\" in \"Zeta form\": press it"
        ),
        other => panic!("the task did not finish: {other:?}"),
    }
}

/// A window still open is never said done: after Apply met the request (the window
/// open), an act that fails leaves the model to go on.
#[tokio::test]
async fn a_failed_act_after_the_request_was_met_in_a_window_still_open_is_not_the_end() {
    let (ran, calls) = window_task(
        "type 'hello' into the Name field and press Apply",
        true,
        vec![
            call(
                "c1",
                "ui_act",
                json!({"element": 1, "action": "set_text", "text": "hello"}),
            ),
            call("c2", "ui_act", json!({"element": 5, "action": "press"})),
            call("c3", "ui_act", json!({"element": 9, "action": "press"})),
            text("I typed hello and pressed Apply."),
        ],
    )
    .await;
    assert_eq!(calls.len(), 4, "{calls:?}");
    match ran.outcome {
        AgentOutcome::Done { reply } => assert!(reply.contains("I typed hello"), "{reply}"),
        other => panic!("the task did not finish: {other:?}"),
    }
}

/// The verification turn's command is read as a plan's: a call written inside it runs as
/// that call, bound to what the window shows (seen: `ui_act(12, toggle)` run in the shell,
/// exit 127, and the answer it checked then stood as a false claim). One the elements
/// do not take is not run, and the next plan may only call a tool.
#[tokio::test]
async fn a_call_in_the_verdict_s_command_runs_as_that_call() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    s.verify = crate::settings::Verify::Always;
    let set = json!({"command": "", "reply": "", "done": false, "tool": "ui_act",
                     "args": {"action": "set_text", "element": 1, "text": "hello"}});
    let answer = json!({"command": "", "reply": "I typed hello and saved it.", "done": true});
    let verdict = |command: &str| {
        let checked = if command.is_empty() { "yes" } else { "no" };
        json!({"checked": checked, "next_command": command, "unable": ""}).to_string()
    };
    let checked_with = |command: &'static str| {
        window_task_in(
            s.clone(),
            "type 'hello' into the Name field of the Zeta form window and save it",
            true,
            vec![
                text(&set.to_string()),
                text(&answer.to_string()),
                text(&verdict(command)),
                text(&answer.to_string()),
                text(&verdict("")),
            ],
            Person::Approves,
        )
    };
    let (ran, calls) = checked_with("ui_act(2, press)").await;
    let acts = acts_of(&calls);
    assert_eq!(
        acts,
        [
            &json!({"action": "set_text", "element": 1, "text": "hello"}),
            &json!({"element": 2, "action": "press"})
        ],
        "{:?}",
        ran.outcome
    );
    let n = ran.model.requests.lock().unwrap().len();
    assert!(
        matches!(&ran.outcome, AgentOutcome::Done { reply } if reply.contains("I typed hello")),
        "{:?}\n{}",
        ran.outcome,
        ran.model.request_text(n - 1)
    );

    // Element 7 was never shown: not run, and told.
    let (ran, calls) = checked_with("ui_act(7, press)").await;
    assert_eq!(acts_of(&calls).len(), 1, "{calls:?}");
    let fourth = ran.model.request_text(3);
    assert!(fourth.contains("Not run: ui_act"), "{fourth}");
}

/// A step that may only call a tool stays so when its reply cannot be read (seen: after
/// nothing was done in a dialog, a reply cut off, then an answer with no act between).
#[tokio::test]
async fn a_step_that_may_only_call_a_tool_stays_so_after_an_unreadable_reply() {
    let (answer, press) = answer_and_press();
    let ran = planner_save_task(vec![
        text(&answer.to_string()),
        text("{\"args\": {\"action\": \"press\", \"element\": 2, \"text\": \"The window"),
        text(&press.to_string()),
        text(&answer.to_string()),
    ])
    .await;
    let requests = ran.model.requests.lock().unwrap();
    assert_eq!(requests.len(), 4, "answer, cut-off reply, act, answer");
    let takes = |n: usize, plan: &Value| plan_takes(&requests[n], plan);
    assert!(!takes(1, &answer) && takes(1, &press));
    assert!(
        !takes(2, &answer),
        "still no answer after the cut-off reply"
    );
    assert!(takes(2, &press));
    assert!(takes(3, &answer), "after the act, an answer again");
}

/// A window closed with every element the request names acted on is not done while a
/// value the request gives was never entered: an act that fails after does not end the
/// task with "Done in the window" (seen: OK pressed first on the City dialog, whose
/// field the request does not name, and "Done in the window "City"" with Lisbon never
/// typed); the answer is judged, and the person reads that it was not entered.
#[tokio::test]
async fn a_closed_window_with_a_value_never_entered_is_not_said_done() {
    let (ran, calls) = window_task(
        "type 'hello' into the Name field and press Save",
        true,
        vec![
            call("c1", "ui_act", json!({"element": 2, "action": "press"})),
            call("c2", "ui_act", json!({"element": 9, "action": "press"})),
            text("I typed hello and pressed Save."),
            text("I typed hello and pressed Save."),
        ],
    )
    .await;
    assert_eq!(acts_of(&calls).len(), 2, "{calls:?}");
    match ran.outcome {
        AgentOutcome::Done { reply } => assert!(
            !reply.contains("Done in the window") && reply.starts_with("Not done:"),
            "{reply}"
        ),
        other => panic!("the task did not finish: {other:?}"),
    }
}
