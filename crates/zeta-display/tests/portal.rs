//! The portal clients against the real xdg-desktop-portal front-end on a private bus, with
//! the test's own back-end behind it (zeta-test-support's `portal`): push-to-talk bound
//! and its press and release received; a person who says no; a portal that never answers.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use zeta_display::portal::connect;
use zeta_display::portal::shortcuts::{bind, bind_within, Edge};
use zeta_display::DisplayError;
use zeta_test_support::portal::{missing, Answer, Portal};
use zeta_test_support::{cannot_run, Needs};

async fn portal(test: &str) -> Option<Portal> {
    if let Some(why) = missing() {
        cannot_run(Needs::Desktop, test, why);
        return None;
    }
    Some(Portal::start().await.unwrap_or_else(|e| panic!("{e}")))
}

async fn next(edges: &mut tokio::sync::mpsc::UnboundedReceiver<Edge>, within: u64) -> Option<Edge> {
    tokio::time::timeout(Duration::from_secs(within), edges.recv())
        .await
        .ok()
        .flatten()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_to_talk_is_bound_through_the_portal_and_its_press_and_release_arrive() {
    let Some(portal) = portal("push_to_talk_is_bound_through_the_portal").await else {
        return;
    };
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let mut bound = bind(conn, "Ctrl+Alt+Space").await.expect("bound");
    assert_eq!(
        bound.trigger, "CTRL+ALT+space",
        "the desktop's own words for it"
    );
    assert_eq!(
        portal.record().bound,
        vec![("push-to-talk".to_string(), "CTRL+ALT+space".to_string())]
    );
    for _ in 0..2 {
        portal.shortcut("push-to-talk", true).await.expect("press");
        assert_eq!(next(&mut bound.edges, 5).await, Some(Edge::Pressed));
        portal
            .shortcut("push-to-talk", false)
            .await
            .expect("release");
        assert_eq!(next(&mut bound.edges, 5).await, Some(Edge::Released));
    }
    // Another shortcut of the session is not ours.
    portal
        .shortcut("something-else", true)
        .await
        .expect("press");
    assert_eq!(next(&mut bound.edges, 1).await, None);
    bound.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_says_no_and_a_portal_that_never_answers_are_said_plainly() {
    let Some(portal) = portal("a_person_who_says_no").await else {
        return;
    };
    portal.answer(Answer::Refuse);
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let refused = bind(conn, "Ctrl+Alt+Space").await.err().expect("refused");
    assert!(
        matches!(refused, DisplayError::Refused { .. }),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "the GlobalShortcuts portal was asked (binding the push-to-talk key) and the person said no"
    );

    portal.answer(Answer::Never);
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let silent = bind_within(conn, "Ctrl+Alt+Space", Duration::from_secs(2))
        .await
        .err()
        .expect("no answer");
    assert!(
        silent
            .to_string()
            .contains("gave no answer (binding the push-to-talk key) within 2 s"),
        "{silent}"
    );
}
