//! Finishing what was asked (`verify`): an answer given before anything ran is sent back
//! once, and one verification turn compares the request with what was run before the task
//! ends; an unfinished part then continues. With `verify: never` neither happens.

use serde_json::json;
use zeta_scripted_llm::{Step, Wire};

use crate::harness::*;

/// The planner protocol's verification reply.
fn verdict(next_command: &str, unable: &str) -> Step {
    Step::text(
        json!({"checked": "looked at the outputs", "next_command": next_command, "unable": unable})
            .to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unfinished_part_found_by_the_verification_turn_is_done() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let done = "There are 2 files; 2 is in ~/count.txt.";
        // Stops after the first part: the check sends it back; the second check (new
        // work since the first) confirms.
        let mut steps = script(
            &[run("ls ~/data | wc -l"), answer("There are 2 files.")],
            proto,
        );
        match proto {
            Proto::Json => steps.extend([
                verdict("echo 2 > ~/count.txt", ""),
                step(&answer(done), proto),
                verdict("", "none"),
            ]),
            Proto::Native => steps.extend(script(
                &[run("echo 2 > ~/count.txt"), answer(done), answer(done)],
                proto,
            )),
        }
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("data/a"), "a");
        write(&s.home.path().join("data/b"), "b");
        // "in ~/count.txt", not "into": the files check of asked writes leaves it to
        // the verification turn (the next test has the check).
        let task = finished_task(
            &s.zeta_run("Count the files in ~/data and write the number in ~/count.txt"),
        );
        assert_eq!(task["status"], "done", "{at}: {task}");
        assert_eq!(
            task["reply"], "There are 2 files; 2 is in ~/count.txt.",
            "{at}"
        );
        let count = std::fs::read_to_string(s.home.path().join("count.txt")).unwrap_or_default();
        assert_eq!(count.trim(), "2", "{at}: the unfinished part ran");
        let requests = s.requests();
        assert_eq!(requests.len(), 5, "{at}");
        let check = text_of(&requests[2]);
        assert!(
            check.contains("Check your work before you finish"),
            "{at}: {check}"
        );
        assert!(
            check.contains("write the number in ~/count.txt"),
            "{at}: the request is quoted"
        );
        assert!(
            check.contains("ls ~/data | wc -l"),
            "{at}: what ran is listed"
        );
        if proto == Proto::Json {
            assert!(
                check.contains("There are 2 files."),
                "{at}: the answer is quoted"
            );
            let schema = &requests[2].body["response_format"]["json_schema"]["schema"];
            assert!(
                schema["properties"]["next_command"].is_object(),
                "{at}: {schema}"
            );
        }
        assert!(
            text_of(&requests[4]).contains("echo 2 > ~/count.txt"),
            "{at}"
        );
        s.assert_invariants();
    }
}

/// A write the request asks for ("into ~/count.txt") that the files do not show sends
/// the answer back with what was found, free of a model turn, whatever the answer says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_the_request_asks_for_is_checked_on_disk() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let done = "There are 2 files; 2 is in ~/count.txt.";
        let mut steps = script(
            &[
                run("ls ~/data | wc -l"),
                answer("There are 2 files."),
                run("echo 2 > ~/count.txt"),
                answer(done),
            ],
            proto,
        );
        steps.push(match proto {
            Proto::Json => verdict("", ""),
            Proto::Native => step(&answer(done), proto),
        });
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("data/a"), "a");
        write(&s.home.path().join("data/b"), "b");
        let task = finished_task(
            &s.zeta_run("How many files are in ~/data? Write the number into ~/count.txt"),
        );
        assert_eq!(task["status"], "done", "{at}: {task}");
        assert_eq!(task["reply"], done, "{at}");
        let count = std::fs::read_to_string(s.home.path().join("count.txt")).unwrap_or_default();
        assert_eq!(count.trim(), "2", "{at}: the asked write ran");
        let requests = s.requests();
        assert_eq!(requests.len(), 5, "{at}");
        let back = text_of(&requests[2]);
        assert!(
            back.contains("Checked on this computer: ~/count.txt does not exist")
                && back.contains("The request asks for it"),
            "{at}: {back}"
        );
        s.assert_invariants();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_before_anything_ran_is_pushed_back_once() {
    let proto = Proto::Json;
    let turns = [
        answer("You have 500 GB free."),
        run("df -h / | tail -1"),
        answer("The df output shows the free space."),
    ];
    let mut steps = script(&turns, proto);
    steps.push(verdict("", "there is no second disk to look at"));
    let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
    let task = finished_task(&s.zeta_run("How much free disk space do I have?"));
    assert_eq!(task["status"], "done", "{task}");
    assert_eq!(
        task["reply"],
        "The df output shows the free space.\n\nNot done: there is no second disk to look at"
    );
    let requests = s.requests();
    assert_eq!(requests.len(), 4);
    assert!(text_of(&requests[1]).contains("You have not run anything yet"));
    // Pushed back once only: a task that needs nothing from the computer still ends.
    let turns = [answer("Hello!"), answer("Hello again!")];
    let s = Setup::with_settings(
        Wire::OpenAi,
        proto,
        script(&turns, proto),
        json!({"verify": "always"}),
    )
    .await;
    let task = finished_task(&s.zeta_run("Say hello"));
    assert_eq!(task["reply"], "Hello again!");
    assert_eq!(s.requests().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_never_and_remote_providers_end_at_the_first_answer() {
    for extra in [json!({"verify": "never"}), json!({})] {
        let proto = Proto::Json;
        let turns = [answer("You have 500 GB free.")];
        let s =
            Setup::with_settings(Wire::OpenAi, proto, script(&turns, proto), extra.clone()).await;
        let task = finished_task(&s.zeta_run("How much free disk space do I have?"));
        assert_eq!(task["reply"], "You have 500 GB free.", "{extra}");
        assert_eq!(s.requests().len(), 1, "{extra}");
    }
}
