//! How the loop treats each kind of model failure: a request too large for the window is
//! compacted and sent once more; the others end the task with their sentence and fix.

use serde_json::json;

use super::scripted::{call, run_scripted, settings, text, Person};
use crate::agent::AgentOutcome;
use crate::model::{Fix, ModelError, ModelFailure};
use crate::policy::PermissionMode::Auto;
use zeta_protocol::{CompactionKind, Event};

fn failure(kind: ModelFailure) -> ModelError {
    ModelError::new(
        kind,
        format!("{kind:?} happened."),
        "details",
        Some(Fix::Retry),
    )
}

/// Twelve calls, then the server refuses the conversation as too large: it is compacted
/// (older turns folded) and sent again, and the task ends with the answer.
#[tokio::test]
async fn a_request_too_large_for_the_window_is_compacted_and_sent_again() {
    let mut script: Vec<_> = (0..12)
        .map(|i| {
            Ok(call(
                &format!("c{i}"),
                "touch",
                json!({"command": format!("echo {i}")}),
            ))
        })
        .collect();
    script.push(Err(failure(ModelFailure::ContextOverflow)));
    script.push(Ok(text("all twelve ran")));
    let ran = run_scripted(settings(Auto), script, Person::Approves).await;
    assert_eq!(
        ran.outcome,
        AgentOutcome::Done {
            reply: "all twelve ran".into()
        }
    );
    let requests = ran.model.requests.lock().unwrap();
    assert_eq!(requests.len(), 14);
    let (refused, again) = (&requests[12], &requests[13]);
    assert!(
        again.messages.len() < refused.messages.len(),
        "sent again smaller: {} then {} messages",
        refused.messages.len(),
        again.messages.len()
    );
    assert!(ran.events.iter().any(|e| matches!(
        e,
        Event::Compacted {
            kind: CompactionKind::Hard,
            ..
        }
    )));
}

/// A second refusal for size, and every other failure, ends the task at once with the
/// model's sentence and its fix; the loop sends nothing more.
#[tokio::test]
async fn other_failures_end_the_task_with_their_sentence_and_fix() {
    let twice = vec![
        Err(failure(ModelFailure::ContextOverflow)),
        Err(failure(ModelFailure::ContextOverflow)),
        Ok(text("never")),
    ];
    let ran = run_scripted(settings(Auto), twice, Person::Approves).await;
    assert!(
        matches!(&ran.outcome, AgentOutcome::Failed { error, .. } if error.contains("ContextOverflow happened."))
    );
    assert_eq!(ran.model.requests.lock().unwrap().len(), 2);
    for kind in [
        ModelFailure::Auth,
        ModelFailure::RateLimited,
        ModelFailure::Unreachable,
        ModelFailure::Server,
        ModelFailure::Runaway,
        ModelFailure::Refused,
        ModelFailure::Unconfigured,
    ] {
        let script = vec![Err(failure(kind)), Ok(text("never"))];
        let ran = run_scripted(settings(Auto), script, Person::Approves).await;
        match &ran.outcome {
            AgentOutcome::Failed { error, fix } => {
                assert!(error.contains(&format!("{kind:?} happened.")), "{error}");
                assert_eq!(fix, &Some(Fix::Retry), "{kind:?}");
            }
            other => panic!("{kind:?}: {other:?}"),
        }
        assert_eq!(ran.model.requests.lock().unwrap().len(), 1, "{kind:?}");
    }
}
