//! Push-to-talk latency: a 3-second spoken command (espeak-ng) with the tiny.en model, from
//! key release to the task in the queue, against the same audio through whisper-rs alone.
//!
//! The pipeline is the app's: the `Listener` (push-to-talk machine, cpal capture from a
//! file-backed ALSA microphone, resampling, VAD, Whisper) and a real core worker whose
//! SQLite queue receives `Op::EnqueueTask` (as the app's voice manager sends it); the clock
//! stops at the worker's `TaskQueued` event. Whisper alone is `WhisperState::full` on the
//! same audio at 16 kHz, with the pipeline's decoding settings (so the difference is the
//! pipeline) and with whisper-rs's defaults (for scale).
//!
//! `cargo bench -p zeta-voice --bench release_to_task` (needs `scripts/whisper-model.sh`,
//! espeak-ng and sox). `ZETA_BENCH_RUNS=N` sets the runs (default 7).

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use whisper_rs::{FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters};
use zeta_core::{spawn_worker, Event, Op, Unconfigured, WorkerOptions, ZetaHome};
use zeta_voice::capture::CaptureOptions;
use zeta_voice::listener::{Listener, ListenerConfig, VoiceEvent};
use zeta_voice::ptt::{Edge, Mode};

const COMMAND: &str = "Find the largest file in my downloads folder";
const CLIP_SECS: f32 = 3.0;

fn main() {
    let runs: usize = std::env::var("ZETA_BENCH_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(7);
    let work = tempfile::tempdir().expect("temp dir");
    let model = tiny_en(work.path());
    let (wav16, mic) = clip(work.path());
    // ALSA reads $HOME/.asoundrc when it first loads its configuration, below.
    std::fs::write(
        work.path().join(".asoundrc"),
        format!(
            "pcm.!default {{ type file; slave.pcm \"null\"; file \"/dev/null\"; infile \"{}\"; format \"raw\" }}\n",
            mic.display()
        ),
    )
    .expect("asoundrc");
    std::env::set_var("HOME", work.path());

    let pipeline = pipeline_runs(work.path(), &model, runs);
    let audio = zeta_voice::audio::read_wav(&wav16).expect("read the 16 kHz clip");
    let (ours, defaults) = whisper_alone(&model, &audio, runs);

    println!("\nclip: {COMMAND:?}, {CLIP_SECS} s, tiny.en, {runs} runs (after a warm-up)");
    report("key release -> task in queue (pipeline)", &pipeline);
    report("whisper-rs alone, the pipeline's settings", &ours);
    report("whisper-rs alone, its default settings", &defaults);
    let (p, w) = (median(&pipeline), median(&ours));
    println!(
        "FIGURES pipeline adds {:.0} ms = {:.1} % to Whisper's own time (goal: under 10 %)",
        (p - w) * 1000.0,
        (p / w - 1.0) * 100.0
    );
}

/// The cached faster-whisper tiny.en, converted to ggml by the same code `zeta models
/// import` uses.
fn tiny_en(dir: &Path) -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .expect("HOME");
    let src = cache.join("zeta/whisper-src/tiny.en");
    assert!(
        src.join("model.bin").is_file(),
        "no {}: run scripts/whisper-model.sh",
        src.display()
    );
    let store = zeta_models::ModelStore::new(dir.join("models"));
    PathBuf::from(store.import(&src, None).expect("convert tiny.en").path)
}

/// The command as a 16 kHz mono WAV (for Whisper alone) and as the raw f32 48 kHz stereo
/// microphone file, both exactly [`CLIP_SECS`] long.
fn clip(dir: &Path) -> (PathBuf, PathBuf) {
    let spoken = dir.join("spoken.wav");
    run(Command::new("espeak-ng")
        .args(["-v", "en-us", "-s", "175", "-w"])
        .arg(&spoken)
        .arg(COMMAND));
    let secs = CLIP_SECS.to_string();
    let wav16 = dir.join("clip16k.wav");
    run(Command::new("sox")
        .arg(&spoken)
        .args(["-r", "16000", "-c", "1", "-b", "16"])
        .arg(&wav16)
        .args(["pad", "0.2", "trim", "0", &secs]));
    let mic = dir.join("mic.raw");
    run(Command::new("sox")
        .arg(&wav16)
        .args(zeta_test_support::sound::MIC_RAW)
        .arg(&mic));
    (wav16, mic)
}

fn run(command: &mut Command) {
    let ok = command.status().is_ok_and(|s| s.success());
    assert!(ok, "{command:?} failed");
}

/// Seconds from key release to `TaskQueued`, per run (a first warm-up run not counted).
fn pipeline_runs(dir: &Path, model: &Path, runs: usize) -> Vec<f64> {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let home = ZetaHome::at(dir.join("zeta-home")).expect("home");
    let (core, mut events, _worker) = runtime
        .block_on(async { spawn_worker(home, Unconfigured, WorkerOptions::default()) })
        .expect("worker");
    let (heard_tx, heard_rx) = mpsc::channel();
    let sink_core = core.clone();
    let listener = Listener::spawn(
        ListenerConfig {
            capture: CaptureOptions {
                device: None,
                max: Duration::from_secs(60),
            },
            mode: Mode::Hold,
            model: model.to_path_buf(),
            language: "en".into(),
        },
        move |event| match event {
            // What the app's voice manager does with a heard command.
            VoiceEvent::Heard { text, .. } => {
                let _ = sink_core.submit(Op::EnqueueTask {
                    sender: "voice".into(),
                    message: text.clone(),
                });
                let _ = heard_tx.send(Ok(text));
            }
            VoiceEvent::NothingHeard => {
                let _ = heard_tx.send(Err("nothing heard".to_string()));
            }
            VoiceEvent::Error { message } => {
                let _ = heard_tx.send(Err(message));
            }
            _ => {}
        },
    )
    .expect("listener");

    let mut times = Vec::new();
    for i in 0..=runs {
        listener.key(Edge::Pressed);
        // Held as long as the clip; the recording is as long as the key was held.
        std::thread::sleep(Duration::from_secs_f32(CLIP_SECS));
        let released = Instant::now();
        listener.key(Edge::Released);
        let queued = runtime.block_on(async {
            loop {
                match tokio::time::timeout(Duration::from_secs(60), events.recv()).await {
                    Ok(Ok(Event::TaskQueued { task })) => break (Instant::now(), task),
                    Ok(Ok(_)) => continue,
                    other => panic!("no TaskQueued event: {other:?}"),
                }
            }
        });
        let text = heard_rx
            .recv_timeout(Duration::from_secs(5))
            .expect("heard")
            .expect("transcribed");
        let took = (queued.0 - released).as_secs_f64();
        println!(
            "run {i}{}: {:.0} ms, task {} {:?}",
            if i == 0 { " (warm-up)" } else { "" },
            took * 1000.0,
            queued.1.id,
            text
        );
        if i > 0 {
            times.push(took);
        }
        // Let the worker finish the task before the next run.
        std::thread::sleep(Duration::from_millis(500));
    }
    times
}

/// Seconds in `WhisperState::full` (with a fresh state, as the pipeline makes one per clip)
/// for the pipeline's settings and for whisper-rs's defaults.
fn whisper_alone(model: &Path, audio: &[f32], runs: usize) -> (Vec<f64>, Vec<f64>) {
    let context = WhisperContext::new_with_params(model, WhisperContextParameters::default())
        .expect("load the model");
    let threads = std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1) as i32;
    let time = |ours: bool| {
        let started = Instant::now();
        let mut state = context.create_state().expect("state");
        let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
        params.set_n_threads(threads);
        params.set_language(Some("en"));
        params.set_print_progress(false);
        if ours {
            params.set_no_context(true);
            params.set_single_segment(true);
            params.set_no_timestamps(true);
            params.set_max_tokens(96);
            params.set_temperature_inc(0.0);
            params.set_audio_ctx(zeta_voice::transcriber::audio_ctx(audio.len()));
        }
        state.full(params, audio).expect("whisper");
        let text: String = (0..state.full_n_segments())
            .filter_map(|i| state.get_segment(i))
            .filter_map(|s| s.to_str_lossy().ok().map(|t| t.to_string()))
            .collect();
        (started.elapsed().as_secs_f64(), text)
    };
    let _ = time(true);
    let mut ours = Vec::new();
    let mut defaults = Vec::new();
    for _ in 0..runs {
        let (t, text) = time(true);
        ours.push(t);
        let (d, _) = time(false);
        defaults.push(d);
        println!(
            "whisper alone: {:.0} ms (defaults {:.0} ms) {text:?}",
            t * 1000.0,
            d * 1000.0
        );
    }
    (ours, defaults)
}

fn median(times: &[f64]) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn report(what: &str, times: &[f64]) {
    let min = times.iter().copied().fold(f64::INFINITY, f64::min);
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "{what:<44} median {:>5.0} ms  (min {:.0}, max {:.0})",
        median(times) * 1000.0,
        min * 1000.0,
        max * 1000.0
    );
}
