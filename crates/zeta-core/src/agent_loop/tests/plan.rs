//! Plans: checked whole before anything shows, refused with the typed decision of their
//! worst step, and run in order once approved.

use serde_json::{json, Value};

use super::scripted::{call, run_task, settings, text, Person};
use crate::policy::PermissionMode::{Ask, Auto, ReadOnly};

fn plan(commands: &[&str]) -> Value {
    let steps: Vec<Value> = commands
        .iter()
        .map(|c| json!({"description": c, "tool": "touch", "params": {"command": c}}))
        .collect();
    json!({"goal": "tidy up", "steps": steps})
}

fn plan_decision(ran: &super::scripted::Ran) -> (String, String) {
    ran.audit
        .iter()
        .find(|e| e.tool == "propose_plan")
        .map(|e| (e.decision.clone(), e.decided_by.clone()))
        .unwrap_or_default()
}

/// One blocked step anywhere makes the whole plan a block; nothing shows, nothing runs.
#[tokio::test]
async fn a_plan_with_a_blocked_step_is_refused_whole_as_a_block() {
    for at in 0..3 {
        let mut commands = vec!["echo a", "echo b"];
        commands.insert(at, "rm -rf ~");
        let replies = vec![call("p1", "propose_plan", plan(&commands)), text("ok")];
        let ran = run_task(settings(Auto), replies, Person::Approves).await;
        assert!(ran.runs.is_empty(), "blocked at {at}");
        assert_eq!(ran.asked(), 0, "blocked at {at}");
        assert_eq!(
            plan_decision(&ran),
            ("blocked".to_string(), "blocklist".to_string()),
            "blocked at {at}"
        );
        let told = ran.model.request_text(1);
        assert!(told.contains("nothing ran"), "{told}");
        assert!(told.contains(&format!("step {}", at + 1)), "{told}");
    }
}

/// Steps the settings refuse, or a plan inside a plan: refused whole as denied.
#[tokio::test]
async fn a_plan_with_a_refused_step_is_refused_as_denied() {
    let replies = vec![call("p1", "propose_plan", plan(&["touch a"])), text("ok")];
    let ran = run_task(settings(ReadOnly), replies, Person::Approves).await;
    assert!(ran.runs.is_empty());
    assert_eq!(
        plan_decision(&ran),
        ("denied".to_string(), "policy".to_string())
    );
    let nested = json!({"goal": "g", "steps": [
        {"description": "inner", "tool": "propose_plan", "params": plan(&["touch a"])}
    ]});
    let replies = vec![call("p1", "propose_plan", nested), text("ok")];
    let ran = run_task(settings(Auto), replies, Person::Approves).await;
    assert!(ran.runs.is_empty());
    assert_eq!(
        plan_decision(&ran),
        ("denied".to_string(), "policy".to_string())
    );
}

/// Approved, the steps run in order, each audited as part of the approved plan; denied,
/// none runs.
#[tokio::test]
async fn an_approved_plan_runs_in_order_and_a_denied_one_not_at_all() {
    let commands = ["touch a", "touch b", "touch c"];
    let replies = vec![call("p1", "propose_plan", plan(&commands)), text("ok")];
    let ran = run_task(settings(Ask), replies, Person::Approves).await;
    assert_eq!(ran.asked(), 1);
    let ran_commands: Vec<&str> = ran
        .runs
        .iter()
        .filter_map(|a| a.get("command").and_then(Value::as_str))
        .collect();
    assert_eq!(ran_commands, commands);
    let steps: Vec<&str> = ran
        .audit
        .iter()
        .filter(|e| e.tool == "touch")
        .map(|e| e.decision.as_str())
        .collect();
    assert_eq!(steps, ["plan-approved"; 3]);

    let replies = vec![call("p1", "propose_plan", plan(&commands)), text("ok")];
    let ran = run_task(settings(Ask), replies, Person::Denies).await;
    assert!(ran.runs.is_empty());
    assert_eq!(plan_decision(&ran).0, "asked-denied");
}

/// A step the person skipped does not run, is on the record as skipped by them (so every
/// surface can say it did not happen), and is no call in the metrics.
#[tokio::test]
async fn a_skipped_step_is_on_the_record_as_skipped() {
    let commands = ["touch a", "touch b", "touch c"];
    let replies = vec![
        call("p1", "propose_plan", plan(&commands)),
        text("All three made."),
    ];
    let ran = run_task(settings(Ask), replies, Person::ApprovesSkipping(1)).await;
    let ran_commands: Vec<&str> = ran
        .runs
        .iter()
        .filter_map(|a| a.get("command").and_then(Value::as_str))
        .collect();
    assert_eq!(ran_commands, ["touch a", "touch c"]);
    let steps: Vec<(&str, &str)> = ran
        .audit
        .iter()
        .filter(|e| e.tool == "touch")
        .map(|e| (e.decision.as_str(), e.decided_by.as_str()))
        .collect();
    assert_eq!(
        steps,
        [
            ("plan-approved", "user"),
            ("user-skipped", "user"),
            ("plan-approved", "user")
        ]
    );
    let calls = ran.events.iter().find_map(|e| match e {
        zeta_protocol::Event::TaskMetrics { metrics } => Some(metrics.tool_calls),
        _ => None,
    });
    assert_eq!(calls, Some(3), "the plan and the two steps that ran");
}
