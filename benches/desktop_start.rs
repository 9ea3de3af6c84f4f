//! The installed app as users run it: the release binary (`target/release/zeta`, or
//! `ZETA_BIN`, e.g. `/usr/bin/zeta` from the .deb) started on the current X display with
//! a tray (run it under `scripts/with-tray.sh`, inside `dbus-run-session`, on Xvfb):
//! - start to the chat window shown, to its page drawn (grabbed by ImageMagick's
//!   `import`, in starts of their own beside the floor's) and to the tray icon shown, median of
//!   `ZETA_BENCH_STARTS` (default 10) starts; the same with a StatusNotifierWatcher on
//!   the bus (`status-notifier-watcher`, as SNI desktops have), to the app's
//!   registration of its icon (stamped by dbus-monitor);
//! - PSS of all Zeta's processes (the app, WebKit's web and network processes) after
//!   `ZETA_BENCH_IDLE_SECS` (default 60) idle with the window open, and the same started
//!   hidden in the tray (`--hidden`, as the login start does), side by side;
//! - the floor beside them: a bare WebKitGTK window (python3-gi, a static page, drawn
//!   the same way), its start → window shown interleaved with Zeta's starts, and idle as
//!   long, which no app with a WebKitGTK window goes below here (`ZETA_BENCH_ONLY=starts`
//!   stops after the starts);
//! - the same around a task whose reply streams for 20 s (a scripted model on 127.0.0.1
//!   writing markdown, 12 characters every 20 ms), each run in a fresh home: just before,
//!   at the stream's end and 10 s after, window open and hidden (the web process's
//!   growth); beside it the same text given at once (what the text itself costs) and
//!   the app at rest again 45 s after that task, and a longer reply 20 s into its stream.
//!
//! The first answer on a new home against a warm one is `benches/first_answer.rs` (it
//! needs the local model; this one needs none).
//!
//! `cargo bench --profile dev --bench desktop_start` (after scripts/build-release.sh).

// Bench code: a failed unwrap or expect is the bench failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use zeta_test_support::procs;

fn xdotool(args: &[&str]) -> String {
    Command::new("xdotool")
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The visible window titled Zeta that is not the tray icon, if one shows.
fn chat_window() -> Option<String> {
    let tray = xdotool(&["search", "--class", "tray-icon"]);
    xdotool(&["search", "--onlyvisible", "--name", "^Zeta$"])
        .lines()
        .find(|w| !tray.lines().any(|t| t == *w))
        .map(str::to_string)
}

fn chat_shown() -> bool {
    chat_window().is_some()
}

/// How many colours window `id` shows, as ImageMagick's `import` grabs it (`None` when it
/// cannot). A window mapped before its page is drawn is one colour, its background; the
/// page's words, fields and their edges are many.
fn colours(id: &str) -> Option<u64> {
    let out = Command::new("import")
        .args(["-window", id, "-format", "%k", "info:"])
        .stderr(Stdio::null())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// Enough colours for a page drawn: text on a field (anti-aliased) gives dozens.
const DRAWN: u64 = 16;

/// Start (`t`) → window `find` shows, and → its page is drawn (`DRAWN` colours); a grab
/// takes ~50 ms here, so the second is that coarse. `None` if either took over 30 s.
fn shown_and_drawn(t: Instant, find: impl Fn() -> Option<String>) -> Option<(Duration, Duration)> {
    let deadline = Duration::from_secs(30);
    let (id, shown) = loop {
        if let Some(id) = find() {
            break (id, t.elapsed());
        }
        if t.elapsed() > deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    while t.elapsed() < deadline {
        if colours(&id).is_some_and(|n| n >= DRAWN) {
            return Some((shown, t.elapsed()));
        }
    }
    None
}

/// `starts` starts of Zeta and of the floor, interleaved, each timed to its window shown
/// and to its page drawn (the grabs cost both the same).
fn drawn_starts(
    bin: &PathBuf,
    home: &std::path::Path,
    page: &std::path::Path,
    starts: usize,
) -> Vec<[Duration; 4]> {
    let mut seen = Vec::new();
    for _ in 0..starts {
        let t = Instant::now();
        let Ok(mut floor) = floor(page) else {
            break;
        };
        let floor_times = shown_and_drawn(t, || {
            xdotool(&["search", "--onlyvisible", "--name", "^floor$"])
                .lines()
                .next()
                .map(str::to_string)
        });
        stop(floor.id());
        let _ = floor.wait();
        let t = Instant::now();
        let mut app = start(bin, home, false);
        let zeta_times = shown_and_drawn(t, chat_window);
        stop(app.id());
        let _ = app.wait();
        let (Some((zs, zd)), Some((fs, fd))) = (zeta_times, floor_times) else {
            break;
        };
        seen.push([zs, zd, fs, fd]);
    }
    seen
}

fn tray_shown() -> bool {
    !xdotool(&["search", "--class", "tray-icon"]).is_empty()
}

fn which(program: &str) -> bool {
    Command::new(program)
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn stop(pid: u32) {
    let mut all = procs::descendants(pid);
    all.insert(0, pid);
    for p in all.iter().rev() {
        let _ = Command::new("kill").arg(p.to_string()).status();
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while procs::stat(pid).is_some_and(|p| !p.is_zombie()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn start(bin: &PathBuf, home: &std::path::Path, hidden: bool) -> std::process::Child {
    let mut cmd = Command::new(bin);
    if hidden {
        cmd.arg("--hidden");
    }
    cmd.env("ZETA_HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start zeta")
}

/// PSS and RSS of `pid` and its descendants, in KiB, by process name.
fn memory(pid: u32) -> Vec<(String, u64)> {
    let mut all = procs::descendants(pid);
    all.insert(0, pid);
    all.into_iter()
        .filter_map(|p| {
            let rollup = std::fs::read_to_string(format!("/proc/{p}/smaps_rollup")).ok()?;
            let pss = rollup
                .lines()
                .find_map(|l| l.strip_prefix("Pss:"))?
                .trim()
                .trim_end_matches(" kB")
                .trim()
                .parse()
                .ok()?;
            let name = std::fs::read_to_string(format!("/proc/{p}/comm"))
                .unwrap_or_default()
                .trim()
                .to_string();
            Some((name, pss))
        })
        .collect()
}

/// Seconds since the epoch, as dbus-monitor stamps messages.
fn epoch() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default()
}

/// `starts` starts with a StatusNotifierWatcher on the session bus (ended by PID after):
/// start → window shown and start → the app's RegisterStatusNotifierItem call (its time
/// as dbus-monitor stamped it), or `None` without the programs.
fn sni_starts(
    bin: &PathBuf,
    home: &std::path::Path,
    starts: usize,
) -> Option<(Vec<Duration>, Vec<Duration>)> {
    use std::io::BufRead;
    let mut watcher = Command::new("status-notifier-watcher")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    std::thread::sleep(Duration::from_secs(1));
    let monitor = Command::new("dbus-monitor")
        .args([
            "--session",
            "type='method_call',interface='org.kde.StatusNotifierWatcher',member='RegisterStatusNotifierItem'",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut monitor) = monitor else {
        stop(watcher.id());
        let _ = watcher.wait();
        return None;
    };
    let (sent, registered) = std::sync::mpsc::channel::<f64>();
    let lines = monitor.stdout.take().expect("dbus-monitor's output");
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(lines).lines().map_while(Result::ok) {
            let stamp = line
                .contains("member=RegisterStatusNotifierItem")
                .then(|| {
                    line.split("time=")
                        .nth(1)?
                        .split_whitespace()
                        .next()?
                        .parse()
                        .ok()
                })
                .flatten();
            if let Some(stamp) = stamp {
                if sent.send(stamp).is_err() {
                    return;
                }
            }
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let (mut to_window, mut to_tray) = (Vec::new(), Vec::new());
    for _ in 0..starts {
        while registered.try_recv().is_ok() {}
        let (t, at) = (Instant::now(), epoch());
        let mut app = start(bin, home, false);
        let (mut window, mut tray) = (None, None);
        while (window.is_none() || tray.is_none()) && t.elapsed() < Duration::from_secs(30) {
            if window.is_none() && chat_shown() {
                window = Some(t.elapsed());
            }
            if let Ok(stamp) = registered.try_recv() {
                tray = Some(Duration::from_secs_f64((stamp - at).max(0.0)));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        stop(app.id());
        let _ = app.wait();
        to_window.push(window.expect("the window showed"));
        to_tray.push(tray.expect("the tray icon was registered with the watcher"));
    }
    for child in [&mut monitor, &mut watcher] {
        stop(child.id());
        let _ = child.wait();
    }
    Some((to_window, to_tray))
}

/// A process's name and its PSS in KiB.
type Pss = (String, u64);

/// The app's processes in a home of their own holding `settings` (so every run starts
/// from the same empty chat): settled (15 s after start), then at each of `at` seconds
/// after a task was given, whose reply the scripted model streams.
fn around_a_task(bin: &PathBuf, settings: &str, hidden: bool, at: &[u64]) -> Vec<Vec<Pss>> {
    let home = tempfile::tempdir().expect("home");
    std::fs::write(home.path().join("settings.json"), settings).expect("settings");
    std::fs::write(home.path().join("onboarded"), "bench\n").expect("onboarded");
    let mut app = start(bin, home.path(), hidden);
    std::thread::sleep(Duration::from_secs(15));
    let mut seen = vec![memory(app.id())];
    let enqueued = Command::new(bin)
        .args(["enqueue", "write me a long story"])
        .env("ZETA_HOME", home.path())
        .output()
        .expect("zeta enqueue");
    assert!(
        enqueued.status.success(),
        "{}",
        String::from_utf8_lossy(&enqueued.stderr)
    );
    let given = Instant::now();
    for secs in at {
        let due = Duration::from_secs(*secs);
        std::thread::sleep(due.saturating_sub(given.elapsed()));
        seen.push(memory(app.id()));
    }
    stop(app.id());
    let _ = app.wait();
    seen
}

/// "100 → 126 MiB (+26 %)": the web process's PSS before and after, if there is one.
fn web_growth(before: &[Pss], after: &[Pss]) -> Option<String> {
    let web = |parts: &[Pss]| -> u64 {
        parts
            .iter()
            .filter(|(n, _)| n.starts_with("WebKitWebProces"))
            .map(|p| p.1)
            .sum()
    };
    let (b, a) = (web(before), web(after));
    (b > 0).then(|| {
        format!(
            "{} → {} MiB ({:+.0} %)",
            b / 1024,
            a / 1024,
            (a as f64 / b as f64 - 1.0) * 100.0
        )
    })
}

/// The floor's page: a static page of the chat's size and kind.
fn floor_page(dir: &std::path::Path) -> PathBuf {
    let page = dir.join("floor.html");
    std::fs::write(
        &page,
        "<html><body><h1>Zeta</h1><p>Ask Zeta to do something.</p><textarea></textarea></body></html>",
    )
    .expect("floor page");
    page
}

/// The floor: a bare WebKitGTK window of Zeta's size (python3-gi, its window titled
/// "floor") showing `page`, drawn as Zeta draws its pages (no GL compositing, scripts
/// interpreted). What any app with a WebKitGTK window costs here.
fn floor(page: &std::path::Path) -> std::io::Result<std::process::Child> {
    let script = "import gi, sys\n\
gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1')\n\
from gi.repository import Gtk, WebKit2\n\
w = Gtk.Window(title='floor'); w.set_default_size(480, 640)\n\
v = WebKit2.WebView(); w.add(v); v.load_uri('file://' + sys.argv[1])\n\
w.show_all(); Gtk.main()\n";
    // Debian's python3, where python3-gi is (a python3 earlier on PATH may lack it).
    Command::new("/usr/bin/python3")
        .args(["-c", script, &page.display().to_string()])
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
        .env("JSC_useJIT", "false")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

/// Start → the floor's window shown, or `None` if it did not show in 30 s.
fn floor_start(page: &std::path::Path) -> Option<Duration> {
    let t = Instant::now();
    let mut child = floor(page).ok()?;
    let mut shown = None;
    while shown.is_none() && t.elapsed() < Duration::from_secs(30) {
        if !xdotool(&["search", "--onlyvisible", "--name", "^floor$"]).is_empty() {
            shown = Some(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    stop(child.id());
    let _ = child.wait();
    shown
}

fn main() {
    if std::env::var_os("DISPLAY").is_none() || xdotool(&["version"]).is_empty() {
        eprintln!(
            "SKIPPED: needs an X display with a tray and xdotool (run under scripts/with-tray.sh)"
        );
        return;
    }
    let bin = std::env::var_os("ZETA_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/release/zeta"));
    if !bin.exists() {
        eprintln!(
            "SKIPPED: no {} (scripts/build-release.sh builds it)",
            bin.display()
        );
        return;
    }
    let home = tempfile::tempdir().expect("home");
    std::fs::write(
        home.path().join("settings.json"),
        r#"{"provider": {"kind": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m"}}"#,
    )
    .expect("settings");
    std::fs::write(home.path().join("onboarded"), "bench\n").expect("onboarded");
    let starts: usize = std::env::var("ZETA_BENCH_STARTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let page = floor_page(home.path());
    let (mut to_window, mut to_tray, mut to_floor) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..starts {
        // The floor's start, interleaved with Zeta's: the same machine, the same moment.
        to_floor.extend(floor_start(&page));
        let t = Instant::now();
        let mut app = start(&bin, home.path(), false);
        let (mut window, mut tray) = (None, None);
        while (window.is_none() || tray.is_none()) && t.elapsed() < Duration::from_secs(30) {
            if window.is_none() && chat_shown() {
                window = Some(t.elapsed());
            }
            if tray.is_none() && tray_shown() {
                tray = Some(t.elapsed());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        stop(app.id());
        let _ = app.wait();
        to_window.push(window.expect("the window showed"));
        to_tray.push(tray.expect("the tray icon showed"));
    }
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1000.0
    };
    println!("{} ({starts} starts)", bin.display());
    println!(
        "start → chat window shown: median {:.0} ms",
        median(to_window)
    );
    println!(
        "start → tray icon shown:   median {:.0} ms",
        median(to_tray)
    );
    if to_floor.len() == starts {
        println!(
            "floor, a bare WebKitGTK window (python3-gi), interleaved: start → window shown: median {:.0} ms",
            median(to_floor)
        );
    } else {
        println!("SKIPPED the floor's starts: python3-gi with WebKit2 4.1 did not show a window");
    }
    // The same on a desktop whose tray speaks StatusNotifierItem (KDE, GNOME with the
    // AppIndicator extension, XFCE, Cinnamon): the icon is there once the app registers
    // it with the watcher; trayer above only takes XEmbed icons, which
    // libayatana-appindicator makes after looking for a watcher and waiting for none.
    match sni_starts(&bin, home.path(), starts) {
        Some((window, tray)) => {
            println!(
                "with a StatusNotifierWatcher: start → chat window shown: median {:.0} ms",
                median(window)
            );
            println!(
                "with a StatusNotifierWatcher: start → tray icon registered: median {:.0} ms",
                median(tray)
            );
        }
        None => println!(
            "SKIPPED the StatusNotifier starts: no status-notifier-watcher or dbus-monitor \
             (Debian: haskell-status-notifier-item-utils, dbus-bin)"
        ),
    }
    // Shown is not drawn: the window is mapped before its page is; both, for Zeta and
    // the floor, interleaved (its own starts: the grabs would slow the ones above).
    let drawn = if which("import") {
        drawn_starts(&bin, home.path(), &page, starts)
    } else {
        Vec::new()
    };
    if drawn.len() == starts {
        let column = |i: usize| median(drawn.iter().map(|d| d[i]).collect());
        println!(
            "start → chat window shown {:.0} ms, its page drawn {:.0} ms; floor: shown {:.0} ms, drawn {:.0} ms (medians, grabbed by import every ~50 ms)",
            column(0),
            column(1),
            column(2),
            column(3)
        );
    } else {
        println!(
            "SKIPPED start → page drawn: no ImageMagick `import`, or a window did not draw in 30 s"
        );
    }
    if std::env::var("ZETA_BENCH_ONLY").as_deref() == Ok("starts") {
        return;
    }
    let idle: u64 = std::env::var("ZETA_BENCH_IDLE_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let report = |what: &str, parts: Vec<(String, u64)>| {
        let total: u64 = parts.iter().map(|p| p.1).sum();
        let each: Vec<String> = parts
            .iter()
            .map(|(n, kb)| format!("{n} {} MiB", kb / 1024))
            .collect();
        println!("{what}: PSS {} MiB ({})", total / 1024, each.join(", "));
    };
    for hidden in [false, true] {
        let mut app = start(&bin, home.path(), hidden);
        std::thread::sleep(Duration::from_secs(idle));
        let parts = memory(app.id());
        stop(app.id());
        let _ = app.wait();
        let state = if hidden {
            "started hidden in the tray"
        } else {
            "window open"
        };
        report(&format!("idle {idle} s, {state}"), parts);
    }

    // The floor: what any WebKitGTK window costs here, whatever app holds it — a bare
    // window of Zeta's size (python3-gi) showing a static page, drawn as Zeta draws its
    // pages (no GL compositing, scripts interpreted), idle as long.
    match floor(&page) {
        Ok(mut floor) => {
            std::thread::sleep(Duration::from_secs(idle));
            let parts = memory(floor.id());
            stop(floor.id());
            let _ = floor.wait();
            if parts.len() < 3 {
                println!("SKIPPED the floor: python3-gi with WebKit2 4.1 did not open a page");
            } else {
                report(
                    &format!("floor: a bare WebKitGTK window, idle {idle} s"),
                    parts,
                );
            }
        }
        Err(e) => println!("SKIPPED the floor: no python3 ({e})"),
    }

    // While a task streams: a scripted model writing a long markdown reply (sections,
    // lists, code) at 12 characters every 20 ms, a fast model's pace (~150 tokens/s):
    // the 20 s stream (12,000 characters) and the rest of the reply past it.
    let reply: String = (1..=200)
        .map(|i| {
            format!(
                "## Part {i}\n\nThe **largest** files in part {i} are listed below, with `du -h` \
                 sizes and what each holds, as you asked.\n\n- first item of {i}\n- second item \
                 of {i}\n\n```sh\ndu -ah ~/part{i} | sort -rh | head -5\n```\n\n"
            )
        })
        .collect();
    let twenty_seconds: String = reply.chars().take(12 * 50 * 20).collect();
    let paced = |text: &str| zeta_scripted_llm::Step::Paced {
        text: text.to_string(),
        piece_chars: 12,
        pause_ms: 20,
    };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let server = runtime
        .block_on(zeta_scripted_llm::ScriptedServer::start(vec![
            paced(&twenty_seconds),
            paced(&twenty_seconds),
            // What the 20 s stream wrote, at once: what the text itself costs.
            zeta_scripted_llm::Step::text(twenty_seconds.clone()),
            // A longer reply, 20 s into its stream: the web process while it still grows.
            paced(&reply),
        ]))
        .expect("scripted server");
    let settings = format!(
        r#"{{"provider": {{"kind": "openai", "baseUrl": "{}", "model": "m", "protocol": "tools", "stream": true}}, "permissions": {{"mode": "auto"}}}}"#,
        server.openai_base_url()
    );
    for hidden in [false, true] {
        let seen = around_a_task(&bin, &settings, hidden, &[21, 30]);
        let state = if hidden {
            "hidden in the tray"
        } else {
            "window open"
        };
        let growth = |i: usize| web_growth(&seen[0], &seen[i]);
        let (at_end, after) = (growth(1), growth(2));
        report(&format!("before the stream, {state}"), seen[0].clone());
        report(
            &format!("the 20 s stream at its end, {state}"),
            seen[1].clone(),
        );
        report(&format!("10 s after the stream, {state}"), seen[2].clone());
        if let (Some(at_end), Some(after)) = (at_end, after) {
            println!("  web process {at_end} at the stream's end; {after} 10 s after");
        }
    }
    // Window open: the same text at once — the web process's growth that is the reply's
    // own (its DOM, and the code that draws a reply the first time), not the streaming's —
    // and a reply longer than 20 s, 20 s into it.
    // The first also 45 s after, the app at rest again after a task (all its processes:
    // what a person's idle app holds once it has answered).
    let runs: [&[(u64, &str)]; 2] = [
        &[
            (10, "the same text at once, 10 s after"),
            (45, "at rest, 45 s after that task"),
        ],
        &[(20, "a longer reply, 20 s into its stream")],
    ];
    for run in runs {
        let at: Vec<u64> = run.iter().map(|(secs, _)| *secs).collect();
        let seen = around_a_task(&bin, &settings, false, &at);
        for (i, (_, what)) in run.iter().enumerate() {
            let growth = web_growth(&seen[0], &seen[i + 1]);
            report(&format!("{what}, window open"), seen[i + 1].clone());
            if let Some(growth) = growth {
                println!("  web process {growth}");
            }
        }
    }
    drop(server);
}
