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
        let done = "There are 2 files; the newest is b.";
        // Stops after the first part: the check sends it back; the second check (new
        // work since the first) confirms. The part left out changes no file, so only the
        // verification turn can find it.
        // Counted by a program: `second-way` asks for none.
        let count =
            "python3 -c \"import os; print(len(os.listdir(os.path.expanduser('~/data'))))\"";
        let mut steps = script(&[run(count), answer("There are 2 files.")], proto);
        match proto {
            Proto::Json => steps.extend([
                verdict("ls -t ~/data | head -1", ""),
                step(&answer(done), proto),
                verdict("", "none"),
            ]),
            Proto::Native => steps.extend(script(
                &[run("ls -t ~/data | head -1"), answer(done), answer(done)],
                proto,
            )),
        }
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("data/a"), "a");
        std::thread::sleep(std::time::Duration::from_millis(20));
        write(&s.home.path().join("data/b"), "b");
        let task =
            finished_task(&s.zeta_run("Count the files in ~/data and show me the newest one"));
        assert_eq!(task["status"], "done", "{at}: {task}");
        assert_eq!(task["reply"], done, "{at}");
        let requests = s.requests();
        assert_eq!(requests.len(), 5, "{at}");
        let check = text_of(&requests[2]);
        assert!(
            check.contains("Check your work before you finish"),
            "{at}: {check}"
        );
        assert!(
            check.contains("show me the newest one"),
            "{at}: the request is quoted"
        );
        assert!(check.contains("os.listdir"), "{at}: what ran is listed");
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
            text_of(&requests[4]).contains("ls -t ~/data | head -1"),
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
        // The count written is computed: its second way, a program that agrees.
        steps.push(step(
            &run("python3 - <<'EOF'\nimport os\nprint(len(os.listdir(os.path.expanduser('~/data'))))\nEOF"),
            proto,
        ));
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
        run("echo 42G free"),
        answer("You have 42G free."),
    ];
    let mut steps = script(&turns, proto);
    steps.push(verdict("", "there is no second disk to look at"));
    let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
    let task = finished_task(&s.zeta_run("How much free disk space do I have?"));
    assert_eq!(task["status"], "done", "{task}");
    assert_eq!(
        task["reply"],
        "You have 42G free.\n\nNot done: there is no second disk to look at"
    );
    let requests = s.requests();
    assert_eq!(requests.len(), 4);
    assert!(text_of(&requests[1]).contains("You have not run anything yet"));
    // Pushed back once only: a task that needs nothing from the computer still ends.
    let turns = [answer("Hello!"), answer("Hello again!")];
    let s = verified(proto, &turns).await;
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

/// The checks' judgements `zeta run --json` printed, as (check, result).
fn checks_of(out: &std::process::Output) -> Vec<(String, String)> {
    events(out)
        .into_iter()
        .filter(|e| e["type"] == "answerChecked")
        .map(|e| {
            (
                e["check"].as_str().unwrap_or_default().to_string(),
                e["result"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// An answer that claims a change no call made goes back with the evidence twice; then
/// the person reads what ran and that nothing changed, not the claim.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_no_call_made_is_never_reported_as_done() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let claim = "I deleted the .tmp files in ~/work.";
        let steps = script(
            &[
                run("ls ~/work"),
                answer(claim),
                answer(claim),
                answer(claim),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("work/a.tmp"), "a");
        write(&s.home.path().join("work/b.txt"), "b");
        let out = s.zeta_run("Delete every .tmp file in ~/work");
        let task = finished_task(&out);
        assert_eq!(task["status"], "done", "{at}: {task}");
        let reply = task["reply"].as_str().unwrap_or_default();
        assert!(
            reply.starts_with("I did not do this: nothing changed"),
            "{at}: {reply}"
        );
        assert!(!reply.contains("I deleted"), "{at}: {reply}");
        assert!(s.home.path().join("work/a.tmp").exists());
        let requests = s.requests();
        assert_eq!(requests.len(), 4, "{at}");
        assert!(
            text_of(&requests[2]).contains("no file changed during this task"),
            "{at}"
        );
        let sent = ("asked-change".to_string(), "sentBack".to_string());
        let told = ("asked-change".to_string(), "told".to_string());
        assert_eq!(checks_of(&out), [sent.clone(), sent, told], "{at}");
        // And `zeta audit` lists the judgements by name.
        let audit = String::from_utf8_lossy(&s.zeta(&["audit"]).stdout).to_string();
        assert!(audit.contains("answer checks:"), "{at}: {audit}");
        assert_eq!(audit.matches("asked-change").count(), 3, "{at}: {audit}");
        s.assert_invariants();
    }
}

/// A value no output printed goes back once, with what was printed; the corrected answer
/// stands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_no_output_printed_goes_back_with_the_evidence() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        // Then `second-way` asks for a program, which bears the count out.
        let mut steps = script(
            &[
                run("wc -l < ~/poem.txt"),
                answer("The file has 1 line."),
                answer("The file has 137 lines."),
                run("python3 -c \"import os; print(len(open(os.path.expanduser('~/poem.txt')).read().splitlines()))\""),
                answer("The file has 137 lines."),
            ],
            proto,
        );
        steps.push(match proto {
            Proto::Json => verdict("", ""),
            Proto::Native => step(&answer("The file has 137 lines."), proto),
        });
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("poem.txt"), &"a line\n".repeat(137));
        let out = s.zeta_run("How many lines are in ~/poem.txt?");
        let task = finished_task(&out);
        assert_eq!(task["reply"], "The file has 137 lines.", "{at}: {task}");
        let back = text_of(&s.requests()[2]);
        assert!(back.contains("no output shows 1"), "{at}: {back}");
        assert_eq!(
            checks_of(&out)[..2],
            [
                ("ungrounded-value".to_string(), "sentBack".to_string()),
                ("second-way".to_string(), "sentBack".to_string())
            ],
            "{at}"
        );
        s.assert_invariants();
    }
}

const EMPTY_IN_PROJECTS: &str = "python3 - <<'EOF'\nimport os\nd = os.path.expanduser('~/projects')\nprint([n for n in os.listdir(d) if os.path.getsize(os.path.join(d, n)) == 0])\nEOF";

/// An answer about a place the model guessed and that is not on this computer
/// (`/srv/…/projects` for "my projects folder"; a guessed home is read in the person's,
/// `a_folder_in_a_home_that_is_not_the_persons_is_read_in_theirs`) goes back once, with
/// the fact and the real home; the answer found where the files are stands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_about_a_guessed_place_that_is_not_there_goes_back() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let guessed = "/srv/nobody-zeta-guess/projects";
        // Then the second way, as "my projects folder" names the home's projects.
        let steps = script(
            &[
                run(format!("ls {guessed}")),
                answer(format!("There are no empty files in {guessed}.")),
                run("find ~/projects -empty -type f"),
                answer("The empty file in ~/projects is draft.txt."),
                run(EMPTY_IN_PROJECTS),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("projects/draft.txt"), "");
        write(&s.home.path().join("projects/notes.txt"), "notes");
        let out = s.zeta_run("list the files with no content in my projects folder");
        let task = finished_task(&out);
        assert_eq!(
            task["reply"], "The empty file in ~/projects is draft.txt.",
            "{at}: {task}"
        );
        let back = text_of(&s.requests()[2]);
        assert!(
            back.contains(&format!("{guessed} does not exist")),
            "{at}: {back}"
        );
        let home = s.home.path().display().to_string();
        assert!(back.contains(&home), "{at}: the real home is said: {back}");
        assert!(
            checks_of(&out).contains(&("missing-path".to_string(), "sentBack".to_string())),
            "{at}: {:?}",
            checks_of(&out)
        );
        s.assert_invariants();
    }
}

/// How a question's second way asks for its program, apart from the task's conversation.
const APART: &str = "Compute the answer to this request with a short Python 3 program";

/// The program a model writes for the second way: the biggest file in ~/docs.
const BIGGEST: &str = "python3 - <<'EOF'\nimport os\nd = os.path.expanduser('~/docs')\nprint(max(os.listdir(d), key=lambda n: os.path.getsize(os.path.join(d, n))))\nEOF";

/// A question about files answered from one command goes back for a second way, a
/// Python program. Where the program bears the answer out (`ls -S` is right), it stands.
/// Where it does not (`ls | sort` sorts names, not sizes), the model is asked once which
/// is right: an answer the program bears out is taken; one that keeps its own is read
/// with what the program printed. The program's output itself never becomes the answer
/// (a small model's program is no better than its command).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_answered_one_way_is_computed_a_second_way() {
    let right = (
        "ls -S ~/docs | head -1",
        "big.log",
        "The biggest file is big.log.",
    );
    let wrong = (
        "ls ~/docs | sort | tail -1",
        "zeta.txt",
        "The biggest file is zeta.txt.",
    );
    for proto in PROTOS {
        for ((command, _, first), then) in [(right, right.2), (wrong, right.2), (wrong, wrong.2)] {
            let at = format!("{proto:?}, {command} then {then}");
            let doubted = first != right.2;
            let steps = script(
                &[run(command), answer(first), run(BIGGEST), answer(then)],
                proto,
            );
            let s =
                Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
            write(&s.home.path().join("docs/zeta.txt"), "z");
            write(&s.home.path().join("docs/a.txt"), "aa");
            write(&s.home.path().join("docs/big.log"), &"x".repeat(5000));
            let out = s.zeta_run("Which file in ~/docs is the biggest?");
            let task = finished_task(&out);
            assert_eq!(task["status"], "done", "{at}: {task}");
            let reply = task["reply"].as_str().unwrap_or_default();
            // The program is asked for apart: the request, nothing of the first way.
            let back = said_in(&s.requests()[2]);
            assert!(back.contains(APART), "{at}: {back}");
            assert!(
                back.contains("Which file in ~/docs is the biggest?")
                    && !back.contains(command)
                    && !back.contains(first),
                "{at}: {back}"
            );
            if doubted {
                // Asked which way is right, in the task's conversation, shown the program.
                let asked = said_in(&s.requests()[3]);
                assert!(
                    text_of(&s.requests()[3]).contains(command)
                        && asked.contains("A Python program, written apart from your commands")
                        && asked.contains("print(max(os.listdir(d)"),
                    "{at}: {asked}"
                );
            }
            // A program that agrees ends the task; one that differs gets one answer,
            // with no tools, on which is right.
            assert_eq!(s.requests().len(), if doubted { 4 } else { 3 }, "{at}");
            assert_eq!(
                checks_of(&out)[0],
                ("second-way".to_string(), "sentBack".to_string()),
                "{at}"
            );
            if doubted && then == right.2 {
                assert_eq!(
                    reply,
                    format!(
                        "{then}\n\n(I could not confirm this: computed another way, the answer \
                         was: {first})"
                    ),
                    "{at}: the answer the program bears out, with the other way's"
                );
            } else if doubted {
                assert!(reply.starts_with(first), "{at}: {reply}");
                assert!(
                    reply.contains("I could not confirm this a second way")
                        && reply.contains("big.log"),
                    "{at}: {reply}"
                );
                assert!(
                    checks_of(&out).contains(&("second-way".to_string(), "told".to_string())),
                    "{at}"
                );
            } else {
                assert_eq!(reply, first, "{at}");
            }
            s.assert_invariants();
        }
    }
}

/// The second way gets one step, and only a program runs in it; the task then ends with
/// the answer that was checked, and the model is not asked again. Seen on the real model:
/// "Thursday" for a date, sent back, became "The file does not exist" after a program
/// that read a file nobody named, then the same question to the person twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_second_way_is_one_step_that_never_loses_the_answer() {
    let weekday =
        "python3 - <<'EOF'\nimport datetime\nprint(datetime.date(2023, 1, 12).strftime('%A'))\nEOF";
    let broken = "python3 - <<'EOF'\nprint(open('/nonexistent/zeta-second-way').read())\nEOF";
    for proto in PROTOS {
        let thens = [
            (
                "a question",
                tool_step(proto, "ask_user", json!({"question": "Which file?"})),
            ),
            ("a program that agrees", step(&run(weekday), proto)),
            ("a program that fails", step(&run(broken), proto)),
        ];
        for (what, then) in thens {
            let at = format!("{proto:?}, {what}");
            let mut steps = script(
                &[
                    run("date -d 2023-01-12 +%A"),
                    answer("It falls on a Thursday."),
                ],
                proto,
            );
            steps.push(then);
            steps.push(step(&answer("The file does not exist."), proto));
            let s =
                Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
            let out = s.zeta_run("on what day of the week does 2023-01-12 fall");
            let task = finished_task(&out);
            assert_eq!(task["status"], "done", "{at}: {task}");
            // Confirmed by the program that agrees; said unconfirmed where none did.
            let reply = task["reply"].as_str().unwrap_or_default();
            if what == "a program that agrees" {
                assert_eq!(reply, "It falls on a Thursday.", "{at}: {task}");
            } else {
                assert_eq!(
                    reply, "It falls on a Thursday.\n\n(I could not confirm this a second way.)",
                    "{at}: {task}"
                );
            }
            let requests = s.requests();
            assert_eq!(
                requests.len(),
                3,
                "{at}: the model is not asked after its step"
            );
            let back = text_of(&requests[2]);
            assert!(back.contains("reading no file"), "{at}: {back}");
            assert_eq!(
                checks_of(&out)[0],
                ("second-way".to_string(), "sentBack".to_string()),
                "{at}"
            );
            // The question was not asked; a program ran where one was written.
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("Which file?"), "{at}: {stderr}");
            s.assert_invariants();
        }
    }
}

/// A change that rests on a value the task computed goes back for a second way too, a
/// program that changes nothing: where it prints another value, the person reads it
/// beside the answer, and the model is not asked which is right (the file holds what the
/// first way wrote); where it prints the same, the answer stands. Seen on the tune half:
/// the lines of a file counted as `ls FILE | wc -l` (1), written and claimed. That
/// command is run with the file's contents piped (`cat FILE | wc -l`), and the model told
/// so; here it writes its 1 all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_that_rests_on_a_computed_value_is_computed_a_second_way() {
    let lines = "python3 - <<'EOF'\nimport os\nprint(len(open(os.path.expanduser('~/invoice.txt')).readlines()))\nEOF";
    let counts = [
        ("ls ~/invoice.txt | wc -l", "1"),
        ("wc -l < ~/invoice.txt", "3"),
    ];
    for proto in PROTOS {
        for (command, n) in counts {
            let at = format!("{proto:?}, {command}");
            let claimed =
                format!("There are {n} lines in ~/invoice.txt; I wrote {n} into ~/count.txt.");
            let steps = script(
                &[
                    run(command),
                    run(format!("echo {n} > ~/count.txt && cat ~/count.txt")),
                    answer(claimed.as_str()),
                    run(lines),
                    answer("There are 3 lines; I wrote 3 into ~/count.txt."),
                ],
                proto,
            );
            let s =
                Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
            write(&s.home.path().join("invoice.txt"), "a\nb\nc\n");
            let out = s
                .zeta_run("Count the lines in ~/invoice.txt and write the number into ~/count.txt");
            let task = finished_task(&out);
            assert_eq!(task["status"], "done", "{at}: {task}");
            let reply = task["reply"].as_str().unwrap_or_default();
            let requests = s.requests();
            assert_eq!(requests.len(), 4, "{at}: no turn after the program");
            // The listing's name piped into `wc` is run with the file's contents, and
            // the model is told so with the output: 3, not 1.
            let after_count = said_in(&requests[1]);
            let read_as = after_count.contains(
                "Run as `cat ~/invoice.txt | wc -l`: `ls ~/invoice.txt` prints only file \
                 names (~/invoice.txt), so `wc` would have worked on the names",
            );
            assert_eq!(read_as, command.starts_with("ls"), "{at}: {after_count}");
            if read_as {
                let audit =
                    String::from_utf8_lossy(&s.zeta(&["audit", "--json"]).stdout).to_string();
                assert!(
                    audit.contains("cat ~/invoice.txt | wc -l")
                        && !audit.contains("ls ~/invoice.txt | wc -l"),
                    "{at}: recorded as run: {audit}"
                );
            }
            let back = text_of(&requests[3]);
            assert!(
                back.contains("a second way") && back.contains("changes nothing"),
                "{at}: {back}"
            );
            if n == "3" {
                assert_eq!(reply, claimed, "{at}: borne out, it stands");
            } else {
                assert_eq!(
                    reply,
                    format!(
                        "{claimed}\n\n(I could not confirm this a second way: a Python \
                         program printed:\n3)"
                    ),
                    "{at}"
                );
            }
            assert_eq!(
                std::fs::read_to_string(s.home.path().join("count.txt")).unwrap_or_default(),
                format!("{n}\n"),
                "{at}: the program changed nothing"
            );
            s.assert_invariants();
        }
    }
}

/// A model that answers with the text of Zeta's own check: that text never reaches the
/// person, who reads what is not done and what the task found instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_internal_message_never_reaches_the_person() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let echoed = "~/answer.txt does not exist. The request asks for it, so it is not done. \
                      Run this command now: echo 2 > ~/answer.txt Then give your whole answer \
                      again, with everything the request asked.";
        let steps = script(
            &[
                run("ls ~/logs/*.log | wc -l"),
                answer("There are 2 .log files."),
                answer(echoed),
                answer(echoed),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("logs/a.log"), "a");
        write(&s.home.path().join("logs/b.log"), "b");
        let out =
            s.zeta_run("How many .log files are in ~/logs? Write the number into ~/answer.txt");
        let task = finished_task(&out);
        let reply = task["reply"].as_str().unwrap_or_default();
        assert!(!reply.contains("The request asks for it"), "{at}: {reply}");
        assert!(!reply.contains("give your whole answer"), "{at}: {reply}");
        assert!(
            reply.starts_with("Not done: ~/answer.txt does not exist."),
            "{at}: {reply}"
        );
        assert!(
            reply.contains('2'),
            "{at}: what the task found is shown: {reply}"
        );
        let checks = checks_of(&out);
        assert!(
            checks.contains(&("internal-text".to_string(), "told".to_string())),
            "{at}: {checks:?}"
        );
        s.assert_invariants();
    }
}

/// A home whose model plays `turns`, with every answer checked (`verify: always`).
async fn verified(proto: Proto, turns: &[Turn]) -> Setup {
    Setup::with_settings(
        Wire::OpenAi,
        proto,
        script(turns, proto),
        json!({"verify": "always"}),
    )
    .await
}

/// The first way of counting the cities in `~/orders.csv` (the header too: 4), the
/// program of the second way (3), and the first answer.
const CITIES_COUNT: &str = "cut -d, -f1 ~/orders.csv | sort -u | wc -l";
const CITIES_PROGRAM: &str =
    "python3 - <<'EOF'\nimport csv, os\nwith open(os.path.expanduser('~/orders.csv')) as f:\n    \
                   print(len({r['city'] for r in csv.DictReader(f)}))\nEOF";
const CITIES_FIRST: &str = "There are 4 distinct cities.";

/// A home with `~/orders.csv` (three cities), where the model counts the cities with
/// `CITIES_COUNT`, answers `CITIES_FIRST`, runs `CITIES_PROGRAM` and then says `again`.
async fn cities(proto: Proto, again: &str) -> Setup {
    let turns = [
        run(CITIES_COUNT),
        answer(CITIES_FIRST),
        run(CITIES_PROGRAM),
        answer(again),
    ];
    let s = verified(proto, &turns).await;
    write(
        &s.home.path().join("orders.csv"),
        "city,amount\nLisbon,1\nOslo,2\nLisbon,3\nRome,4\n",
    );
    s
}

/// Two ways that disagree: after the program, the model is asked once, with no tools,
/// which is right, and its new answer is taken only where the program's output bears it
/// out, with what the first way gave beside it (one way against another confirms
/// nothing); otherwise the person reads the answer that was checked, with what the
/// program printed. Seen on the real model: "5 distinct cities" from a count of the
/// header too, the program's 4 only in the note beside it; and 4 from the program taken
/// over a listing's 1, where the truth was 5.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_ways_that_disagree_are_settled_by_what_the_program_bears_out() {
    let (count, program, first) = (CITIES_COUNT, CITIES_PROGRAM, CITIES_FIRST);
    let doubted =
        format!("{first}\n\n(I could not confirm this a second way: a Python program printed:\n3)");
    for proto in PROTOS {
        for (again, want) in [
            (
                "There are 3 distinct cities.",
                format!(
                    "There are 3 distinct cities.\n\n(I could not confirm this: computed another \
                     way, the answer was: {first})"
                ),
            ),
            ("I still count 4 distinct cities.", doubted.clone()),
            ("There are 7 distinct cities.", doubted.clone()),
        ] {
            let at = format!("{proto:?}, {again}");
            let s = cities(proto, again).await;
            let out = s.zeta_run("How many distinct cities are in ~/orders.csv?");
            let task = finished_task(&out);
            assert_eq!(task["status"], "done", "{at}: {task}");
            assert_eq!(task["reply"], want.as_str(), "{at}: {task}");
            let requests = s.requests();
            assert_eq!(requests.len(), 4, "{at}: one turn after the program");
            // The program written apart: the request, nothing of the first way.
            let apart = said_in(&requests[2]);
            assert!(
                apart.contains(APART) && !apart.contains(first),
                "{at}: {apart}"
            );
            assert!(!text_of(&requests[2]).contains(count), "{at}");
            let asked = said_in(&requests[3]);
            assert!(
                asked.contains("Two ways of computing it disagree. Your answer was: There are 4")
                    && asked.contains(&format!(
                        "written apart from your commands:\n{program}\nprinted:\n3"
                    )),
                "{at}: {asked}"
            );
            let checks = checks_of(&out);
            assert_eq!(
                checks[..2],
                [
                    ("second-way".to_string(), "sentBack".to_string()),
                    ("second-way".to_string(), "sentBack".to_string())
                ],
                "{at}: {checks:?}"
            );
            s.assert_invariants();
        }
    }
}

/// With `second-way-apart` off (a measuring aid, `ZETA_HELP_OFF`), the program is asked
/// for in the task's conversation, after the first way's command and answer, and the
/// model judging two ways is not shown the program again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_second_way_in_the_tasks_conversation_where_apart_is_off() {
    let (count, first) = (CITIES_COUNT, CITIES_FIRST);
    for proto in PROTOS {
        let s = cities(proto, "There are 3 distinct cities.").await;
        let off = std::path::Path::new("second-way-apart");
        let request = "How many distinct cities are in ~/orders.csv?";
        let out = s.zeta_env(
            &["run", "--json", "--approve", "all", request],
            &[("ZETA_HELP_OFF", off)],
        );
        let task = finished_task(&out);
        assert_eq!(task["status"], "done", "{proto:?}: {task}");
        let requests = s.requests();
        assert_eq!(requests.len(), 4, "{proto:?}");
        let back = said_in(&requests[2]);
        assert!(
            text_of(&requests[2]).contains(count) && back.contains(first) && !back.contains(APART),
            "{proto:?}: {back}"
        );
        let asked = said_in(&requests[3]);
        assert!(
            asked.contains("The Python program printed:\n3")
                && !asked.contains("written apart from your commands"),
            "{proto:?}: {asked}"
        );
        s.assert_invariants();
    }
}

/// Names sorted by size where the listing holds none (`ls ~/notes | sort -rh`, seen on
/// the tune half for the largest file) are run as `ls -S`, and the model is told so with
/// the output; how the call was read is Zeta's word to the model, never part of what the
/// person reads the commands printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_sorted_by_size_run_by_size_and_the_reading_stays_with_the_model() {
    for proto in PROTOS {
        let at = format!("{proto:?}");
        // No value in the answer: sent back with the output, then for a second way,
        // which never comes; the person is told what the command printed.
        let steps = script(
            &[
                run("ls ~/notes | sort -rh | head -n 1"),
                answer("I looked."),
                answer("I looked."),
                answer("I looked."),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("notes/big.log"), &"x".repeat(5000));
        write(&s.home.path().join("notes/small.txt"), "y");
        write(&s.home.path().join("notes/zebra.md"), "zz");
        let out = s.zeta_run("Which file in ~/notes is the largest?");
        let task = finished_task(&out);
        let reply = task["reply"].as_str().unwrap_or_default();

        let requests = s.requests();
        let after = said_in(&requests[1]);
        assert!(
            after.contains("Run as `ls -S ~/notes | head -n 1`") && after.contains("big.log"),
            "{at}: {after}"
        );
        assert!(!after.contains("zebra.md"), "{at}: sorted as text: {after}");
        assert_eq!(
            reply,
            "I looked.\n\nWhat the commands printed:\nbig.log\n\n(I could not confirm this \
             a second way.)",
            "{at}: what was printed is told: {:?}",
            checks_of(&out)
        );
        assert!(
            !reply.contains("Run as"),
            "{at}: Zeta's reading leaked: {reply}"
        );
        s.assert_invariants();
    }
}

/// awk's arithmetic on a field of words (`$2`, the items; seen on the tune half, three
/// sums in three printed as 0 and answered) is run on the file's one field of numbers,
/// recorded as run, and the model is told so with the output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arithmetic_on_a_field_of_words_runs_on_the_field_of_numbers() {
    let program = "python3 - <<'EOF'\nimport csv, os\nrows = list(csv.DictReader(open(os.path.expanduser('~/sales.csv'))))\nprint(sum(int(r['amount']) for r in rows))\nEOF";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(
            &[
                run("awk -F, '{sum += $2} END {print sum}' ~/sales.csv"),
                answer("The total of the amounts is 94."),
                run(program),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(
            &s.home.path().join("sales.csv"),
            "city,item,amount\nOslo,pen,12\nLima,ink,30\nOslo,clip,7\nRome,pen,45\n",
        );
        let out = s.zeta_run("What is the total of the amount column in ~/sales.csv?");
        let task = finished_task(&out);
        assert_eq!(
            task["reply"],
            "The total of the amounts is 94.",
            "{at}: {task} {:?}",
            checks_of(&out)
        );
        let after = said_in(&s.requests()[1]);
        assert!(
            after.contains(
                "Run as `awk -F, '{sum += $3} END {print sum}' ~/sales.csv`: In ~/sales.csv, \
                 $2 (`item` on its first line) holds no number"
            ) && after.contains("94"),
            "{at}: {after}"
        );
        let audit = String::from_utf8_lossy(&s.zeta(&["audit", "--json"]).stdout).to_string();
        assert!(
            audit.contains("{sum += $3}") && !audit.contains("{sum += $2}"),
            "{at}: recorded as run: {audit}"
        );
        s.assert_invariants();
    }
}

/// A folder written in a home that is not the person's (`/home/user/projects` for "my
/// projects folder", seen on the tune half every run) is read in theirs, and the
/// readings after it read the call as it runs: here names sorted as sizes, run as `ls
/// -S`. The model is told both; the audit records the command as run; the person's
/// answer holds neither note.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_in_a_home_that_is_not_the_persons_is_read_in_theirs() {
    let ghost = "/home/nobody-zeta-agent-test";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        // "my notes folder" names the home's notes: the answer goes back for a second
        // way, which bears it out.
        let steps = script(
            &[
                run(format!("ls {ghost}/notes | sort -rh | head -n 1")),
                answer("The largest file in your notes is big.log."),
                run(BIGGEST.replace("~/docs", "~/notes")),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("notes/big.log"), &"x".repeat(5000));
        write(&s.home.path().join("notes/small.txt"), "y");
        write(&s.home.path().join("notes/zebra.md"), "zz");
        let out = s.zeta_run("Which file in my notes folder is the largest?");
        let task = finished_task(&out);
        assert_eq!(
            task["reply"],
            "The largest file in your notes is big.log.",
            "{at}: {task} {:?}",
            checks_of(&out)
        );
        let after = said_in(&s.requests()[1]);
        let home = s.home.path().display().to_string();
        assert!(
            after.contains(&format!(
                "Read in this computer's home: the home folder here is {home} (~), not {ghost}"
            )) && after.contains(&format!("Run as `ls -S {home}/notes | head -n 1`"))
                && after.contains("big.log"),
            "{at}: {after}"
        );
        assert!(!after.contains("zebra.md"), "{at}: sorted as text: {after}");
        let audit = String::from_utf8_lossy(&s.zeta(&["audit", "--json"]).stdout).to_string();
        assert!(
            audit.contains(&format!("ls -S {home}/notes")) && !audit.contains(ghost),
            "{at}: recorded as run: {audit}"
        );
        s.assert_invariants();
    }
}

/// A file the request names, given to a reader where it is not (`/var/log/…/server.log`
/// for "my server.log", seen on the tune half), is read where it is: run so, recorded as
/// run, the model told so; no missing place is left for the person to read about.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_file_guessed_elsewhere_is_read_where_it_is() {
    let guessed = "/var/log/zeta-nowhere/server.log";
    let program = "python3 - <<'EOF'\nimport os\nprint(sum('WARN' in l for l in open(os.path.expanduser('~/server.log'))))\nEOF";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(
            &[
                run(format!("grep -c WARN {guessed}")),
                answer("There are 2 lines with WARN in your server.log."),
                run(program),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(
            &s.home.path().join("server.log"),
            "09:00 INFO up\n09:01 WARN disk\n09:02 ERROR net\n09:03 WARN fan\n",
        );
        let out = s.zeta_run("How many lines in my server.log contain WARN?");
        let task = finished_task(&out);
        assert_eq!(
            task["reply"],
            "There are 2 lines with WARN in your server.log.",
            "{at}: {task} {:?}",
            checks_of(&out)
        );
        let home = s.home.path().display().to_string();
        let after = said_in(&s.requests()[1]);
        // The home's path is quoted where the shell needs it (`.tmpXXXX`).
        let path = format!("{home}/server.log");
        let reads = [
            format!("grep -c WARN {path}"),
            format!("grep -c WARN '{path}'"),
        ];
        assert!(
            reads.iter().any(|read| after.contains(&format!(
                "Run as `{read}`: {guessed} is not on this computer"
            ))),
            "{at}: {after}"
        );
        let audit = String::from_utf8_lossy(&s.zeta(&["audit", "--json"]).stdout).to_string();
        assert!(
            reads.iter().any(|read| audit.contains(read.as_str())),
            "{at}: recorded as run: {audit}"
        );
        assert!(!audit.contains(guessed), "{at}: recorded as run: {audit}");
        s.assert_invariants();
    }
}

/// Readings in a row: a file's name piped into awk (`ls ~/q3.csv | awk …`) is read as its
/// contents, and then awk, which split the rows at blanks, as split at the file's commas
/// on its field of numbers; the model reads both notes, the audit the command as run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readings_in_a_row_read_the_command_as_the_one_before_runs_it() {
    let program = "python3 - <<'EOF'\nimport csv, os\nprint(sum(int(r['amount']) for r in csv.DictReader(open(os.path.expanduser('~/q3.csv')))))\nEOF";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(
            &[
                run("ls ~/q3.csv | awk '{sum += $1} END {print sum}'"),
                answer("The total is 94."),
                run(program),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(
            &s.home.path().join("q3.csv"),
            "city,item,amount\nOslo,pen,12\nLima,ink,30\nOslo,clip,7\nRome,pen,45\n",
        );
        let out = s.zeta_run("What is the total of the amounts in ~/q3.csv?");
        let task = finished_task(&out);
        assert_eq!(
            task["reply"],
            "The total is 94.",
            "{at}: {task} {:?}",
            checks_of(&out)
        );
        let after = said_in(&s.requests()[1]);
        assert!(
            after.contains("Run as `cat ~/q3.csv | awk")
                && after.contains("Run as `cat ~/q3.csv | awk -F, '{sum += $3} END {print sum}'`")
                && after.contains("94"),
            "{at}: {after}"
        );
        let audit = String::from_utf8_lossy(&s.zeta(&["audit", "--json"]).stdout).to_string();
        assert!(
            audit.contains("cat ~/q3.csv | awk -F, '{sum += $3}") && !audit.contains("ls ~/q3.csv"),
            "{at}: recorded as run: {audit}"
        );
        s.assert_invariants();
    }
}

/// A program that lists every file bears out no pick among them (seen on the tune half:
/// "the largest file is alpha.json", stood as confirmed by a program that printed the
/// folder's four paths). The two ways differ; the model keeps its answer; the person
/// reads it doubted, with what the program printed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_lists_every_file_bears_out_no_pick() {
    let listing = "python3 - <<'EOF'\nimport glob, os\nfor f in sorted(glob.glob(os.path.expanduser('~/docs/*'))):\n    print(f)\nEOF";
    let first = "The biggest file is zeta.txt.";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(
            &[
                run("ls ~/docs | sort | tail -1"),
                answer(first),
                run(listing),
                answer(first),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(&s.home.path().join("docs/zeta.txt"), "z");
        write(&s.home.path().join("docs/a.txt"), "aa");
        write(&s.home.path().join("docs/big.log"), &"x".repeat(5000));
        let out = s.zeta_run("Which file in ~/docs is the biggest?");
        let task = finished_task(&out);
        let reply = task["reply"].as_str().unwrap_or_default();
        assert_eq!(s.requests().len(), 4, "{at}: asked which way is right");
        assert!(
            reply.starts_with(first)
                && reply
                    .contains("I could not confirm this a second way: a Python program printed:")
                && reply.contains("big.log"),
            "{at}: not told as confirmed: {reply}"
        );
        s.assert_invariants();
    }
}

/// A folder the request names by a bare word ("the biggest file in my docs folder": no
/// slash, no extension) is a place all the same, as the home holds it: the answer goes
/// back for a second way as one about `~/docs` does. A word the home holds no entry of
/// names no place: a question with neither a place nor a number goes through the
/// verification turn instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_named_by_a_bare_word_is_computed_a_second_way() {
    let first = "The biggest file is big.log.";
    for proto in PROTOS {
        for (request, place) in [
            ("Which file in my docs folder is the biggest?", true),
            ("Which file in my papers folder is the biggest?", false),
        ] {
            let at = format!("{proto:?}: {request}");
            // A request that names no place goes through the verification turn instead.
            let mut steps = script(&[run("ls -S ~/docs | head -1"), answer(first)], proto);
            steps.push(match (place, proto) {
                (true, _) => step(&run(BIGGEST), proto),
                (false, Proto::Json) => verdict("", ""),
                (false, Proto::Native) => step(&answer(first), proto),
            });
            let s =
                Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
            write(&s.home.path().join("docs/a.txt"), "aa");
            write(&s.home.path().join("docs/big.log"), &"x".repeat(5000));
            let out = s.zeta_run(request);
            let task = finished_task(&out);
            assert_eq!(task["reply"], first, "{at}: {task}");
            let second = checks_of(&out)
                .iter()
                .any(|(check, _)| check == "second-way");
            assert_eq!(second, place, "{at}: {:?}", checks_of(&out));
            assert_eq!(s.requests().len(), 3, "{at}");
            let back = text_of(&s.requests()[2]);
            assert_eq!(back.contains(APART), place, "{at}: {back}");
            s.assert_invariants();
        }
    }
}

const HIGHEST_PRICE: &str = "python3 - <<'EOF'\nimport csv, os\nrows = csv.DictReader(open(os.path.expanduser('~/stock.csv')))\nprint(max(float(r['price']) for r in rows))\nEOF";

/// The columns a command reads by number are named by its file's first line, with what
/// it printed (seen on requests written after the benchmark: `awk -F, '{print $3}'` for
/// the highest price, the third column being `qty`): the model reads the note, the
/// command runs as written, and the person's answer holds no note.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_columns_a_command_reads_are_named_by_the_files_header() {
    let command = "awk -F, 'NR>1 {print $3}' ~/stock.csv | sort -nr | head -1";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(
            &[
                run(command),
                run("awk -F, 'NR>1 {print $2}' ~/stock.csv | sort -nr | head -1"),
                answer("The highest price is 37.6."),
                run(HIGHEST_PRICE),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(
            &s.home.path().join("stock.csv"),
            "item,price,qty\napple,31.6,90\nplum,37.6,10\nfig,3.5,51\n",
        );
        let out = s.zeta_run("What is the highest price in ~/stock.csv?");
        let task = finished_task(&out);
        let after = said_in(&s.requests()[1]);
        assert!(
            after.contains("90")
                && after.contains(
                    "the first line of ~/stock.csv (`item,price,qty`): $3 is the column \"qty\""
                ),
            "{at}: {after}"
        );
        let reply = task["reply"].as_str().unwrap_or_default();
        assert_eq!(
            reply,
            "The highest price is 37.6.",
            "{at}: {:?}",
            checks_of(&out)
        );
        let audit = String::from_utf8_lossy(&s.zeta(&["audit", "--json"]).stdout).to_string();
        assert!(audit.contains("print $3"), "{at}: run as written: {audit}");
        s.assert_invariants();
    }
}

/// find searching names for a word none of them holds (`find ~/reports -name
/// '*Kilimanjaro*'`, seen on the tune half: "no file mentions it", then borne out by a
/// program that searched the names too) comes back with how grep searches what the
/// files hold; the model reads it with the empty output, and its search of the files
/// finds the one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_searched_by_find_in_vain_come_back_with_how_to_search_the_files() {
    let program = "python3 - <<'EOF'\nimport os\nd = os.path.expanduser('~/reports')\nprint([n for n in os.listdir(d) if 'Kilimanjaro' in open(os.path.join(d, n)).read()])\nEOF";
    for proto in PROTOS {
        let at = format!("{proto:?}");
        let steps = script(
            &[
                run("find ~/reports -name '*Kilimanjaro*'"),
                run("grep -rl 'Kilimanjaro' ~/reports"),
                answer("alpha.txt mentions Kilimanjaro."),
                run(program),
            ],
            proto,
        );
        let s = Setup::with_settings(Wire::OpenAi, proto, steps, json!({"verify": "always"})).await;
        write(
            &s.home.path().join("reports/alpha.txt"),
            "we climbed Kilimanjaro\n",
        );
        write(&s.home.path().join("reports/beta.md"), "nothing here\n");
        let out = s.zeta_run("Which file in ~/reports mentions Kilimanjaro?");
        let task = finished_task(&out);
        let after = said_in(&s.requests()[1]);
        assert!(
            after.contains(
                "No name under ~/reports holds \"Kilimanjaro\": find searched the files' names"
            ) && after.contains("`grep -rl 'Kilimanjaro' ~/reports`"),
            "{at}: {after}"
        );
        assert_eq!(
            task["reply"],
            "alpha.txt mentions Kilimanjaro.",
            "{at}: {task} {:?}",
            checks_of(&out)
        );
        s.assert_invariants();
    }
}
