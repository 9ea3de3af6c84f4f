//! What a small model is given: the previous task's answer only for a follow-up, the
//! skills in its first turn, and an answer asked of it with the planner's reply alone
//! when it keeps repeating a call.

use serde_json::json;

use super::scripted::{run_given, settings, text, FixedKnowledge, Given, Person};
use crate::agent::AgentOutcome;
use crate::model::ResponseFormat;
use crate::policy::PermissionMode::Auto;

const PREVIOUS: &str = "You have 42 GB free on /.";

async fn first_request(message: &str, small: bool) -> String {
    let given = Given {
        message: message.into(),
        previous: Some(PREVIOUS.into()),
        small,
        ..Given::default()
    };
    let ran = run_given(
        settings(Auto),
        vec![Ok(text("ok"))],
        Person::Approves,
        given,
    )
    .await;
    ran.model.request_text(0)
}

#[tokio::test]
async fn a_small_model_sees_the_previous_answer_only_when_the_request_points_back() {
    assert!(
        !first_request("What is my user name?", true)
            .await
            .contains(PREVIOUS),
        "a fresh question does not carry the disk space asked before"
    );
    assert!(
        first_request("and /home?", true).await.contains(PREVIOUS),
        "a follow-up does"
    );
    assert!(
        first_request("What is my user name?", false)
            .await
            .contains(PREVIOUS),
        "a larger model always gets it, as before"
    );
}

/// The skills (zeta-skills, through `Knowledge`) reach the first turn by the model's
/// size, and what they name as used is on the skill's record.
#[tokio::test]
async fn the_knowledge_a_model_is_given_is_in_its_first_turn_by_its_size() {
    let first = |small: bool| {
        let given = Given {
            message: "What is the total of the amount column in ~/sales.csv?".into(),
            small,
            knowledge: Some(std::sync::Arc::new(FixedKnowledge)),
            ..Given::default()
        };
        async move {
            run_given(
                settings(Auto),
                vec![Ok(text("ok"))],
                Person::Approves,
                given,
            )
            .await
        }
    };
    let ran = first(true).await;
    let asked = ran.model.request_text(0);
    assert!(asked.contains("[the skills for a small model"), "{asked}");
    assert_eq!(ran.skill_records["test-skill"].used, 1);
    let ran = first(false).await;
    assert!(ran
        .model
        .request_text(0)
        .contains("[the skills for a large model"));
    // Without knowledge, none.
    let bare = run_given(
        settings(Auto),
        vec![Ok(text("ok"))],
        Person::Approves,
        Given {
            small: true,
            ..Given::default()
        },
    )
    .await;
    assert!(!bare.model.request_text(0).contains("[the skills"));
    assert!(bare.skill_records.is_empty());
}

/// The planner protocol: three identical calls, then the answer asked with a schema that
/// holds only `reply`, read from the JSON.
#[tokio::test]
async fn the_planner_is_asked_for_its_reply_alone_after_three_identical_calls() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let plan = |id: &str| {
        text(
            &json!({"command": "echo hi", "reasoning": "", "reply": "", "done": false, "id": id})
                .to_string(),
        )
    };
    let script = vec![
        Ok(plan("a")),
        Ok(plan("b")),
        Ok(plan("c")),
        Ok(text(r#"{"reply": "It printed hi."}"#)),
    ];
    let given = Given {
        message: "say hi".into(),
        ..Given::default()
    };
    let ran = run_given(s, script, Person::Approves, given).await;
    assert_eq!(
        ran.outcome,
        AgentOutcome::Done {
            reply: "It printed hi.".into()
        }
    );
    let requests = ran.model.requests.lock().unwrap();
    assert_eq!(requests.len(), 4);
    match &requests[3].format {
        ResponseFormat::JsonSchema(schema) => {
            let fields: Vec<_> = schema["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            assert_eq!(fields, ["reply"]);
        }
        other => panic!("the answer is asked with the reply schema, not {other:?}"),
    }
    assert!(requests[3].tools.is_empty());
}

/// The planner stalls (empty plans, twice) after a call ran: it is asked once for its
/// reply alone and the task ends with that answer, not a bare failure; with nothing run
/// yet, or no answer given, the task fails as before.
#[tokio::test]
async fn a_planner_that_stalls_after_a_call_is_asked_for_its_answer() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let run = json!({"command": "echo hi", "reply": "", "done": false}).to_string();
    let stall = json!({"command": "", "reply": "", "done": false}).to_string();
    let given = || Given {
        message: "say hi".into(),
        ..Given::default()
    };
    let script = vec![
        Ok(text(&run)),
        Ok(text(&stall)),
        Ok(text(&stall)),
        Ok(text(r#"{"reply": "It printed hi."}"#)),
    ];
    let ran = run_given(s.clone(), script, Person::Approves, given()).await;
    assert_eq!(
        ran.outcome,
        AgentOutcome::Done {
            reply: "It printed hi.".into()
        }
    );
    {
        let requests = ran.model.requests.lock().unwrap();
        assert_eq!(requests.len(), 4);
        assert!(
            matches!(&requests[3].format, ResponseFormat::JsonSchema(schema)
            if schema["properties"].as_object().is_some_and(|p| p.len() == 1))
        );
    }
    assert!(ran.model.request_text(3).contains("Stop planning now"));

    // No answer when asked: the failure stands.
    let script = vec![
        Ok(text(&run)),
        Ok(text(&stall)),
        Ok(text(&stall)),
        Ok(text(r#"{"reply": ""}"#)),
    ];
    let ran = run_given(s.clone(), script, Person::Approves, given()).await;
    assert!(
        matches!(&ran.outcome, AgentOutcome::Failed { .. }),
        "{:?}",
        ran.outcome
    );
    // Nothing ran yet: it fails at once, without a fourth request.
    let script = vec![Ok(text(&stall)), Ok(text(&stall)), Ok(text("{}"))];
    let ran = run_given(s, script, Person::Approves, given()).await;
    assert!(matches!(&ran.outcome, AgentOutcome::Failed { .. }));
    assert_eq!(ran.model.requests.lock().unwrap().len(), 2);
}

/// Asked for its answer after repeating a call, the model claims a write nothing made:
/// the person is told the file was not written, not the claim.
#[tokio::test]
async fn an_answer_after_repeats_that_claims_an_unmade_change_is_replaced_by_what_happened() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    let plan = json!({"command": "echo hi", "reply": "", "done": false}).to_string();
    let script = vec![
        Ok(text(&plan)),
        Ok(text(&plan)),
        Ok(text(&plan)),
        Ok(text(r#"{"reply": "I wrote hi into ~/hi.txt."}"#)),
    ];
    let given = Given {
        message: "write hi into ~/hi.txt".into(),
        ..Given::default()
    };
    let ran = run_given(s, script, Person::Approves, given).await;
    match &ran.outcome {
        AgentOutcome::Done { reply } => {
            assert!(reply.starts_with("I did not finish this"), "{reply}");
            assert!(reply.contains("~/hi.txt"), "{reply}");
            assert!(!reply.contains("I wrote"), "{reply}");
        }
        other => panic!("{other:?}"),
    }
}

/// The check asks for the very command that produced the answer: nothing was missing, so
/// the checked answer stands at once (no repeat and no second answer).
#[tokio::test]
async fn a_check_that_names_the_last_command_again_lets_the_answer_stand() {
    let mut s = settings(Auto);
    s.provider.protocol = crate::settings::Protocol::Json;
    s.verify = crate::settings::Verify::Always;
    let script = vec![
        Ok(text(
            &json!({"command": "echo hi", "reply": "", "done": false}).to_string(),
        )),
        Ok(text(
            &json!({"command": "", "reply": "It printed hi.", "done": true}).to_string(),
        )),
        Ok(text(
            &json!({"checked": "yes", "next_command": "echo hi", "unable": ""}).to_string(),
        )),
    ];
    let given = Given {
        message: "say hi".into(),
        ..Given::default()
    };
    let ran = run_given(s, script, Person::Approves, given).await;
    assert_eq!(
        ran.outcome,
        AgentOutcome::Done {
            reply: "It printed hi.".into()
        }
    );
    assert_eq!(ran.model.requests.lock().unwrap().len(), 3);
}
