//! A command that starts the program of the window the request is about, while that
//! window is on screen: not run, and the model is pointed at the window (seen: `yad
//! --entry …` for "Enter 4217 as the room code in the Code dialog", a second dialog and
//! 30 s lost). Commands of other programs run as before.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::scripted::{open_spec, run_given, settings, text, Given, Person};
use crate::assist::windows::ShownWindow;
use crate::model::ToolSpec;
use crate::policy::PermissionMode::Auto;
use crate::tool::{Tool, ToolContext, ToolFuture, ToolOutput};

/// A tool that records the calls it runs: `ui_outline` reads the Code dialog; `shell`
/// prints "ok".
struct Recorded {
    name: &'static str,
    ran: Arc<Mutex<Vec<Value>>>,
}

impl Tool for Recorded {
    fn spec(&self) -> ToolSpec {
        open_spec(self.name)
    }
    fn has_side_effects(&self) -> bool {
        self.name == "shell"
    }
    fn run<'a>(&'a self, arguments: Value, _ctx: &'a ToolContext) -> ToolFuture<'a> {
        if self.name == "shell" {
            self.ran.lock().unwrap().push(arguments);
        }
        let out = match self.name {
            "ui_outline" => ToolOutput::ok(
                "Window \"Code\" (yad):\n[1] text \"Room code\" = \"\"\n[2] push button \"OK\"",
                "read \"Code\": 2 elements",
            ),
            "ui_act" => {
                let mut out = ToolOutput::ok("Did: set its text to \"4217\".", "acted");
                out.read_back = Some(Box::new(crate::tool::ReadBack {
                    element: "text \"Room code\" in \"Code\"".into(),
                    window: "Code".into(),
                    action: "set_text".into(),
                    intended: "set its text to \"4217\"".into(),
                    shown: crate::tool::Shown::Yes("it shows \"4217\"".into()),
                    request_met: false,
                    closed: false,
                    left: None,
                    app: String::new(),
                    ocr: false,
                    keyed: false,
                    dropped: Vec::new(),
                }));
                out
            }
            _ => ToolOutput::ok("ok", "ran"),
        };
        Box::pin(async move { out })
    }
}

/// `request` run with the Code dialog of yad on screen and the small model's `plans`
/// (checked as a small model is: held-back changes are told to the person): the task,
/// and the commands the shell ran.
async fn code_task(request: &str, plans: &[Value]) -> (super::scripted::Ran, Vec<Value>) {
    let ran = Arc::new(Mutex::new(Vec::new()));
    let tools: Vec<Arc<dyn Tool>> = ["ui_outline", "ui_act", "shell"]
        .into_iter()
        .map(|name| {
            Arc::new(Recorded {
                name,
                ran: Arc::clone(&ran),
            }) as Arc<dyn Tool>
        })
        .collect();
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    s.verify = crate::settings::Verify::Auto;
    let task = run_given(
        s,
        plans.iter().map(|p| Ok(text(&p.to_string()))).collect(),
        Person::Approves,
        Given {
            message: request.into(),
            small: true,
            tools,
            on_screen: vec![ShownWindow {
                title: "Code".into(),
                app: "yad Yad".into(),
            }],
            ..Given::default()
        },
    )
    .await;
    let ran = ran.lock().unwrap().clone();
    (task, ran)
}

/// Runs "Enter 4217 …", the small model writing `command` and then an answer: the
/// commands the shell ran, the second request, and its schema.
async fn with_command(command: &str) -> (Vec<Value>, String, Value) {
    let plan = json!({"command": command, "reply": "", "done": false});
    let answer = json!({"command": "", "reply": "Not done.", "done": true});
    let outline =
        json!({"command": "", "reply": "", "done": false, "tool": "ui_outline", "args": {}});
    let (ran_task, ran) = code_task(
        "Enter 4217 as the room code in the Code dialog and press OK",
        &[plan, answer.clone(), outline, answer.clone(), answer],
    )
    .await;
    let second = ran_task.model.request_text(1);
    let format = match &ran_task.model.requests.lock().unwrap()[1].format {
        crate::model::ResponseFormat::JsonSchema(schema) => schema.clone(),
        _ => Value::Null,
    };
    let crate::agent::AgentOutcome::Done { reply } = &ran_task.outcome else {
        panic!("{command}: {:?}", ran_task.outcome);
    };
    // Zeta chose not to run it: no change of the person's was held back.
    assert!(!reply.contains("not allowed"), "{command}: {reply}");
    (ran, second, format)
}

#[tokio::test]
async fn a_command_starting_the_window_s_program_again_is_not_run() {
    for command in [
        "yad --entry --text 'Room code' --entry-text 4217",
        "/usr/bin/yad --entry",
        "YAD --entry",
        "echo 4217 | yad --entry",
        "cd /tmp && yad --entry --text Code",
    ] {
        let (ran, second, format) = with_command(command).await;
        assert!(ran.is_empty(), "{command}: ran {ran:?}");
        assert!(
            second.contains("Not run: the window \"Code\" of ")
                && second.contains("already on screen")
                && second.contains(super::super::screen::WINDOW_INSTEAD),
            "{command}: {second}"
        );
        let ls = json!({"command": "ls", "reply": "", "done": false});
        let takes_a_command = jsonschema::validator_for(&format).is_ok_and(|v| v.is_valid(&ls));
        assert!(
            !takes_a_command,
            "{command}: commands are closed after it: {format}"
        );
    }
}

#[tokio::test]
async fn commands_of_other_programs_run() {
    for command in ["cat ~/code.txt", "yadm status", "echo yad"] {
        let (ran, second, format) = with_command(command).await;
        assert_eq!(ran.len(), 1, "{command}: {second}");
        let ls = json!({"command": "ls", "reply": "", "done": false});
        assert!(jsonschema::validator_for(&format).is_ok_and(|v| v.is_valid(&ls)));
        assert!(!second.contains("Not run:"), "{command}: {second}");
    }
}

/// Once an act in the window went through, a request that names a window and no path
/// is done in the window: the plan offers no command. One that names a path keeps them.
#[tokio::test]
async fn after_an_act_in_the_window_a_request_without_a_path_runs_no_command() {
    for (request, commands_after) in [
        (
            "Enter 4217 as the room code in the Code dialog and press OK",
            false,
        ),
        (
            "Enter the number in ~/code.txt as the room code in the Code dialog",
            true,
        ),
    ] {
        let act = json!({"command": "", "reply": "", "done": false, "tool": "ui_act",
                         "args": {"action": "set_text", "element": 1, "text": "4217"}});
        let answer = json!({"command": "", "reply": "Entered 4217.", "done": true});
        let (task, _) = code_task(request, &[act, answer]).await;
        let requests = task.model.requests.lock().unwrap();
        let takes_command = |n: usize| match &requests[n].format {
            crate::model::ResponseFormat::JsonSchema(schema) => {
                let ls = json!({"command": "ls", "reply": "", "done": false});
                jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(&ls))
            }
            _ => panic!("no schema"),
        };
        assert!(takes_command(0), "{request}: before the act");
        assert_eq!(takes_command(1), commands_after, "{request}: after the act");
    }
}
