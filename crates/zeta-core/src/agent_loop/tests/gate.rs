//! The gate, call by call: what never runs, what is invalid, what asks and who decided.

use serde_json::json;

use super::scripted::{call, run_task, settings, text, Person};
use crate::agent::AgentOutcome;
use crate::policy::PermissionMode::{self, Ask, Auto, ReadOnly};

fn decided(decision: &str, by: &str) -> Vec<(String, String)> {
    vec![(decision.to_string(), by.to_string())]
}

/// A family of commands no mode lets run: the call is refused before anything runs,
/// nobody is asked, the audit says the blocklist decided, and the model is told why.
#[tokio::test]
async fn a_blocked_command_never_runs_in_any_mode() {
    let commands = [
        "rm -rf /",
        "rm -rf ~",
        "sudo rm -rf --no-preserve-root /",
        "dd if=/dev/zero of=/dev/sda",
        "mkfs.ext4 /dev/sda1",
        ":(){ :|:& };:",
    ];
    for mode in [Ask, Auto, ReadOnly] {
        for command in commands {
            let replies = vec![call("c1", "touch", json!({"command": command})), text("ok")];
            let ran = run_task(settings(mode), replies, Person::Approves).await;
            let at = format!("{mode:?} {command}");
            assert!(ran.runs.is_empty(), "{at}: it ran");
            assert_eq!(ran.asked(), 0, "{at}: a blocked call asks nobody");
            assert_eq!(ran.decisions(), decided("blocked", "blocklist"), "{at}");
            assert!(
                ran.model.request_text(1).contains("never runs this"),
                "{at}: the model is told"
            );
        }
    }
}

/// No such tool, or arguments that do not fit its schema: invalid, decided by the
/// validator, nothing run, the model told what is wrong.
#[tokio::test]
async fn unknown_tools_and_arguments_off_the_schema_are_invalid() {
    let cases = [
        (
            "nope",
            json!({"command": "ls"}),
            "There is no tool named `nope`",
        ),
        ("touch", json!({}), "\"command\" is a required property"),
        ("touch", json!({"command": 5}), "/command"),
        ("touch", json!({"command": "ls", "extra": 1}), "extra"),
    ];
    for (tool, arguments, told) in cases {
        let replies = vec![call("c1", tool, arguments.clone()), text("ok")];
        let ran = run_task(settings(Auto), replies, Person::Approves).await;
        assert!(ran.runs.is_empty(), "{tool} {arguments}");
        assert_eq!(
            ran.decisions(),
            decided("invalid", "validator"),
            "{arguments}"
        );
        let second = ran.model.request_text(1);
        assert!(second.contains(told), "{arguments}: {second}");
    }
}

/// The mode decides whether a change asks; the person's answer decides whether it runs.
#[tokio::test]
async fn the_mode_and_the_person_decide_a_change() {
    // Mode, answer, questions asked, ran, (decision, decided by).
    type Case = (
        PermissionMode,
        Person,
        usize,
        bool,
        (&'static str, &'static str),
    );
    let cases: [Case; 4] = [
        (Ask, Person::Approves, 1, true, ("asked-approved", "user")),
        (Ask, Person::Denies, 1, false, ("asked-denied", "user")),
        (Auto, Person::Denies, 0, true, ("allowed", "policy")),
        (ReadOnly, Person::Approves, 0, false, ("denied", "policy")),
    ];
    for (mode, person, asked, runs, (decision, by)) in cases {
        let replies = vec![
            call("c1", "touch", json!({"command": "touch notes.txt"})),
            text("ok"),
        ];
        let ran = run_task(settings(mode), replies, person).await;
        let at = format!("{mode:?} {person:?}");
        assert_eq!(ran.asked(), asked, "{at}");
        assert_eq!(ran.runs.len(), usize::from(runs), "{at}");
        assert_eq!(ran.decisions(), decided(decision, by), "{at}");
        // A change that did not run is said to be not done, whatever the answer says.
        let reply = if runs {
            "ok".to_string()
        } else {
            "Not done: a change was not allowed (touch touch notes.txt).\n\nok".to_string()
        };
        assert_eq!(ran.outcome, AgentOutcome::Done { reply }, "{at}");
    }
}

/// A command whose effect is known only when it runs asks a person even in `auto` mode.
#[tokio::test]
async fn a_command_known_only_when_it_runs_asks_even_in_auto_mode() {
    let commands = [
        "$CMD -rf build",
        "eval \"$CLEANUP\"",
        "bash -c \"$SCRIPT\"",
        "echo cm0gLXJmIGJ1aWxk | base64 -d | sh",
    ];
    for command in commands {
        let replies = vec![call("c1", "touch", json!({"command": command})), text("ok")];
        let ran = run_task(settings(Auto), replies, Person::Denies).await;
        assert_eq!(ran.asked(), 1, "{command}: {:?}", ran.decisions());
        assert!(ran.runs.is_empty(), "{command}");
        assert_eq!(
            ran.decisions(),
            decided("asked-denied", "user"),
            "{command}"
        );
    }
}

/// A command Zeta's parser cannot read (a small model's lone backslash, an unclosed quote
/// or substitution) still asks a person, and when refused the model is told its syntax is
/// broken, so that it rewrites the command instead of giving up; a command refused for
/// another reason gets no such note.
#[tokio::test]
async fn a_refused_command_that_does_not_parse_is_called_broken_syntax() {
    let broken = [
        "mkdir -p ~/archive && find ~/logs -name '*.log' -exec mv {} ~/archive/ \\",
        "echo 'unclosed >> notes.txt",
        "cp \"$(ls -S data | head -1 data/\" backup/",
        "for f in *.log; do mv \"$f\" archive/;",
    ];
    for command in broken {
        let replies = vec![call("c1", "touch", json!({"command": command})), text("ok")];
        let ran = run_task(settings(Auto), replies, Person::Denies).await;
        assert_eq!(ran.asked(), 1, "{command}: {:?}", ran.decisions());
        assert!(ran.runs.is_empty(), "{command}");
        let read = ran.model.request_text(1);
        assert!(
            read.contains("could not parse part of this command"),
            "{command}: {read}"
        );
    }
    let replies = vec![
        call("c1", "touch", json!({"command": "$CMD -rf build"})),
        text("ok"),
    ];
    let ran = run_task(settings(Auto), replies, Person::Denies).await;
    assert_eq!(ran.asked(), 1);
    let read = ran.model.request_text(1);
    assert!(!read.contains("could not parse"), "{read}");
    // Refused for taking its targets from input, it is told to name them in two steps.
    assert!(read.contains("Do it in two steps"), "{read}");
}

/// Commands whose targets come from their input (a family: xargs, a substitution, a
/// variable) are refused, when refused, with the two-step way to write them.
#[tokio::test]
async fn a_refused_command_with_targets_from_its_input_is_shown_the_two_step_way() {
    for command in [
        "find ~/data -type f | sort | tail -n 1 | xargs cp ~/backup/",
        "ls ~/logs/*.log | xargs cp -t ~/old/",
        "cp ~/notes.txt \"$(cat ~/where.txt)\"",
        "mv $FILE ~/archive/",
    ] {
        let replies = vec![call("c1", "touch", json!({"command": command})), text("ok")];
        let ran = run_task(settings(Auto), replies, Person::Denies).await;
        assert_eq!(ran.asked(), 1, "{command}: {:?}", ran.decisions());
        assert!(ran.runs.is_empty(), "{command}");
        let read = ran.model.request_text(1);
        assert!(read.contains("Do it in two steps"), "{command}: {read}");
    }
}

/// A change whose call was too malformed to run was not held back by anyone: the person is
/// never told "a change was not allowed" for it.
#[tokio::test]
async fn a_malformed_change_is_not_said_to_be_disallowed() {
    let replies = vec![call("c1", "touch", json!({"command": 5})), text("ok")];
    let ran = run_task(settings(Auto), replies, Person::Approves).await;
    assert_eq!(ran.decisions(), decided("invalid", "validator"));
    let AgentOutcome::Done { reply } = &ran.outcome else {
        panic!("{:?}", ran.outcome);
    };
    assert!(!reply.contains("was not allowed"), "{reply}");
    // A denied one still is.
    let replies = vec![
        call("c1", "touch", json!({"command": "touch notes.txt"})),
        text("ok"),
    ];
    let ran = run_task(settings(Ask), replies, Person::Denies).await;
    let AgentOutcome::Done { reply } = &ran.outcome else {
        panic!("{:?}", ran.outcome);
    };
    assert!(
        reply.starts_with("Not done: a change was not allowed"),
        "{reply}"
    );
}

/// What a call that did not run brought back is the gate's message, Zeta's own words: a
/// model that gives it back as its answer (seen: "… Do not retry it as it is; ask the user
/// or take another way." as the whole answer) has it left out, and the person reads what
/// the task did instead.
#[tokio::test]
async fn a_refusal_given_back_as_the_answer_is_not_the_answer() {
    let replies = vec![
        call("c1", "touch", json!({"command": "$CMD -rf build"})),
        text("The user denied it. Do not retry it as it is; ask the user or take another way."),
    ];
    let ran = run_task(settings(Auto), replies, Person::Denies).await;
    assert!(ran.runs.is_empty());
    match ran.outcome {
        AgentOutcome::Done { reply } => {
            assert!(!reply.contains("Do not retry it"), "{reply}");
            assert!(
                reply.contains("Not done") || reply.contains("not allowed"),
                "{reply}"
            );
        }
        other => panic!("the task did not finish: {other:?}"),
    }
}
