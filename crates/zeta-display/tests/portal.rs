//! The portal clients against the real xdg-desktop-portal front-end on a private bus, with
//! the test's own back-end behind it (zeta-test-support's `portal`): push-to-talk bound
//! and its press and release received; a remote-desktop session asked once, its restore
//! token handed back and replaced, its keys and clicks received; a person who says no; a
//! portal that never answers.

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use zeta_display::portal::connect;
use zeta_display::portal::remote::{self, Button, Screen, Tokens};
use zeta_display::portal::shortcuts::{bind, bind_within, Edge};
use zeta_display::portal::{screencast, screenshot};
use zeta_display::DisplayError;
use zeta_test_support::portal::{missing, Answer, Front, Portal};
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

/// Debian 12's front-end (RemoteDesktop version 1) keeps nothing: the keys and clicks go
/// through, and the person is asked on every start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_desktop_sends_keys_and_clicks_through_the_real_front_end() {
    let Some(portal) = portal("remote_desktop_sends_keys_and_clicks").await else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let tokens = Tokens::at(dir.path().join("remote-desktop.token"));
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let remote = remote::start(conn, &tokens, Duration::from_secs(5))
        .await
        .expect("started");
    assert!(
        !remote.remembers,
        "xdg-desktop-portal 1.16 has no restore tokens"
    );
    assert_eq!(
        remote.screen,
        Some(Screen {
            node: 42,
            x: 0,
            y: 0,
            width: 1280,
            height: 800
        })
    );
    remote.type_text("Hé").await.expect("typed");
    remote.move_to(100, 200).await.expect("moved");
    remote.button(Button::Left, true).await.expect("down");
    remote.button(Button::Left, false).await.expect("up");
    remote.scroll(3, false).await.expect("scrolled");
    remote.close().await;
    assert_eq!(
        portal.record().input,
        [
            "keysym 0x48 down",
            "keysym 0x48 up",
            "keysym 0xe9 down",
            "keysym 0xe9 up",
            "absolute 42 100 200",
            "button 272 down",
            "button 272 up",
            "scroll 0 3",
        ]
    );
    assert_eq!(tokens.load(), None);

    portal.answer(Answer::Refuse);
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let refused = remote::start(conn, &tokens, Duration::from_secs(5))
        .await
        .err()
        .expect("refused");
    assert!(
        matches!(refused, DisplayError::Refused { .. }),
        "{refused:?}"
    );
    portal.answer(Answer::Never);
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let silent = remote::start(conn, &tokens, Duration::from_secs(2))
        .await
        .err()
        .expect("no answer");
    assert!(silent.to_string().contains("gave no answer"), "{silent}");
}

/// A version-2 front-end: asked once, its token handed back on the next start and
/// replaced by the new one; a "no" forgets it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_desktop_asks_once_then_its_token_is_handed_back_and_replaced() {
    if let Some(why) = missing() {
        cannot_run(Needs::Desktop, "remote_desktop_asks_once", why);
        return;
    }
    let front = Front::start().await.unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("dir");
    let tokens = Tokens::at(dir.path().join("remote-desktop.token"));
    let start = || async {
        let conn = connect(Some(&front.address))
            .await
            .expect("the private bus");
        remote::start(conn, &tokens, Duration::from_secs(5)).await
    };
    let remote = start().await.expect("started");
    assert!(remote.remembers);
    remote.move_to(640, 400).await.expect("moved");
    remote.close().await;
    assert_eq!(tokens.load().as_deref(), Some("token-1"));
    start().await.expect("started again").close().await;
    assert_eq!(
        tokens.load().as_deref(),
        Some("token-2"),
        "replaced: tokens are single-use"
    );
    assert_eq!(
        front.record().restored,
        vec![None, Some("token-1".to_string())],
        "the first grant's token came back"
    );
    assert_eq!(front.record().input, ["absolute 42 640 400"]);

    front.answer(Answer::Refuse);
    let refused = start().await.err().expect("refused");
    assert!(
        matches!(refused, DisplayError::Refused { .. }),
        "{refused:?}"
    );
    assert_eq!(tokens.load(), None, "a no forgets the token");
    assert_eq!(
        front.record().restored.last(),
        Some(&Some("token-2".to_string()))
    );
}

/// GNOME and KDE: the screen through the Screenshot portal (the real front-end offers it
/// with an Access back-end beside it); the picture is read and its file removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screenshot_portal_gives_the_screen_and_its_file_is_removed() {
    let Some(portal) = portal("the_screenshot_portal_gives_the_screen").await else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let png = dir.path().join("screen.png");
    let mut img = image::RgbaImage::from_pixel(1280, 800, image::Rgba([20, 40, 60, 255]));
    img.put_pixel(640, 400, image::Rgba([250, 0, 0, 255]));
    img.save(&png).expect("the test picture");
    portal.picture(&png);
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let shot = screenshot::take(conn, Duration::from_secs(5))
        .await
        .expect("a screenshot");
    assert_eq!((shot.width, shot.height), (1280, 800));
    let at = |x: usize, y: usize| &shot.rgba[(y * 1280 + x) * 4..(y * 1280 + x) * 4 + 4];
    assert_eq!(at(640, 400), [250, 0, 0, 255]);
    assert_eq!(at(0, 0), [20, 40, 60, 255]);
    assert!(
        !dir.path().join("Screenshot 1.png").exists(),
        "the portal's file is removed once read"
    );

    portal.answer(Answer::Refuse);
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let refused = screenshot::take(conn, Duration::from_secs(5))
        .await
        .expect_err("refused");
    assert!(
        matches!(refused, DisplayError::Refused { .. }),
        "{refused:?}"
    );
}

/// GNOME and KDE: the screen through the ScreenCast portal, its frames over PipeWire (a
/// real PipeWire with WirePlumber and a red 1280x800 video source, the remote opened by the
/// real front-end); the person's choice kept in a restore token and handed back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screen_cast_portal_gives_frames_over_pipewire_and_keeps_the_choice() {
    let test = "the_screen_cast_portal_gives_frames_over_pipewire";
    if let Some(why) = missing().or_else(zeta_test_support::portal::screen_missing) {
        cannot_run(Needs::Desktop, test, why);
        return;
    }
    let portal = Portal::with_screen()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("dir");
    let tokens = Tokens::at(dir.path().join("screen-cast.token"));
    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    let cast = screencast::start(conn, &tokens, Duration::from_secs(5))
        .await
        .expect("a screen-cast session");
    assert_eq!(cast.size, Some((1280, 800)));
    let (cast, frame) = tokio::task::spawn_blocking(move || {
        let frame = cast.frame(Duration::from_secs(10));
        (cast, frame)
    })
    .await
    .expect("the frame thread");
    let frame = frame.expect("a frame");
    assert_eq!((frame.width, frame.height), (1280, 800));
    let px = &frame.rgba[(400 * 1280 + 640) * 4..(400 * 1280 + 640) * 4 + 4];
    assert!(
        px[0] > 200 && px[1] < 60 && px[2] < 60,
        "the source is red: {px:?}"
    );
    cast.close().await;
    let first = tokens.load().expect("the choice kept");

    let conn = connect(Some(&portal.address))
        .await
        .expect("the private bus");
    screencast::start(conn, &tokens, Duration::from_secs(5))
        .await
        .expect("started again")
        .close()
        .await;
    assert_eq!(
        portal.record().cast_restored,
        vec![None, Some("cast-1".to_string())],
        "the first choice came back to the desktop"
    );
    // xdg-desktop-portal 1.16 hands back the same token for the same choice (the
    // version-2 remote-desktop double above shows a replaced one kept).
    assert_eq!(
        tokens.load(),
        Some(first),
        "the token the portal gave is kept"
    );
}
