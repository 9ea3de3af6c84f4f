//! One voice session at a time: hotkey edges (decided by [`crate::ptt`]) and direct
//! start/stop/toggle (tray, `zeta listen`) in, [`VoiceEvent`]s out. The app, the CLI and
//! the benchmark are just listeners of those events.
//!
//! Recording and transcription run on threads of their own, so a key is always answered.
//! In hold mode the audio up to a key release is transcribed at once, while the release
//! waits out the auto-repeat gap ([`crate::ptt::REPEAT_GAP_MS`]); a press within the gap
//! discards that transcription and the recording goes on. So the debounce costs no time.
//! After one such press (a server sending auto-repeat as release+press pairs) the rest of
//! that recording waits out the gap instead, so held keys do not start transcription after
//! transcription.
//! The model loads while the first recording runs (not at app start), and is kept warm
//! afterwards. With no model file, nothing is recorded: `NoModel` says which one is missing.

use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::capture::{CaptureOptions, Ended, Recording};
use crate::ptt::{Action, Edge, Mode, PushToTalk};
use crate::{Transcriber, Transcript, VoiceError};

pub use zeta_protocol::voice::{VoiceEvent, VoiceState};

#[derive(Debug, Clone, PartialEq)]
pub struct ListenerConfig {
    pub capture: CaptureOptions,
    pub mode: Mode,
    pub model: PathBuf,
    /// ISO 639-1 or `auto`.
    pub language: String,
}

type Sink = Arc<dyn Fn(VoiceEvent) + Send + Sync>;

enum Msg {
    Key(Edge, Instant),
    Start,
    Stop,
    Toggle,
    /// The recording ended by itself (cap, device loss).
    Ended,
    /// A transcription finished; the number is its generation (stale ones are dropped).
    Transcribed(u64, Result<Transcript, VoiceError>),
    Configure(ListenerConfig),
}

/// The handle; cheap to clone. The session ends when every handle is dropped.
#[derive(Clone)]
pub struct Listener {
    tx: mpsc::Sender<Msg>,
    state: Arc<Mutex<VoiceState>>,
}

impl Listener {
    pub fn spawn(
        config: ListenerConfig,
        sink: impl Fn(VoiceEvent) + Send + Sync + 'static,
    ) -> Result<Self, VoiceError> {
        let (tx, rx) = mpsc::channel();
        let state = Arc::new(Mutex::new(VoiceState::Idle));
        let session = Session {
            ptt: PushToTalk::new(config.mode),
            transcriber: Arc::new(Transcriber::new(&config.model, &config.language)),
            config,
            sink: Arc::new(sink),
            tx: tx.clone(),
            state: Arc::clone(&state),
            recording: None,
            transcribing: false,
            epoch: Instant::now(),
            generation: 0,
            speculative: None,
            early: None,
            repeat_pairs: false,
        };
        std::thread::Builder::new()
            .name("zeta-voice".into())
            .spawn(move || session.run(rx))
            .map_err(|e| VoiceError::Capture(format!("could not start the voice thread: {e}")))?;
        Ok(Self { tx, state })
    }

    /// A hotkey edge, as it happened.
    pub fn key(&self, edge: Edge) {
        let _ = self.tx.send(Msg::Key(edge, Instant::now()));
    }

    pub fn start(&self) {
        let _ = self.tx.send(Msg::Start);
    }

    pub fn stop(&self) {
        let _ = self.tx.send(Msg::Stop);
    }

    pub fn toggle(&self) {
        let _ = self.tx.send(Msg::Toggle);
    }

    /// New settings; a recording in progress finishes with the old ones.
    pub fn configure(&self, config: ListenerConfig) {
        let _ = self.tx.send(Msg::Configure(config));
    }

    pub fn state(&self) -> VoiceState {
        self.state.lock().map(|s| *s).unwrap_or(VoiceState::Idle)
    }
}

struct Session {
    config: ListenerConfig,
    ptt: PushToTalk,
    transcriber: Arc<Transcriber>,
    sink: Sink,
    tx: mpsc::Sender<Msg>,
    state: Arc<Mutex<VoiceState>>,
    recording: Option<Recording>,
    transcribing: bool,
    epoch: Instant,
    /// Counts transcriptions started; a result from an older one is dropped.
    generation: u64,
    /// The generation transcribing the audio up to a release not confirmed yet.
    speculative: Option<u64>,
    /// Its result, when it came before the release was confirmed.
    early: Option<Result<Transcript, VoiceError>>,
    /// This recording saw an auto-repeat pair: no more early transcriptions for it.
    repeat_pairs: bool,
}

impl Session {
    fn run(mut self, rx: mpsc::Receiver<Msg>) {
        loop {
            let msg = match self.ptt.deadline() {
                Some(due) => {
                    let due = self.epoch + Duration::from_millis(due);
                    rx.recv_timeout(due.saturating_duration_since(Instant::now()))
                }
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match msg {
                Ok(Msg::Key(edge, at)) => {
                    let ms = self.millis(at);
                    let due = self.ptt.tick(ms);
                    self.act(due);
                    let action = self.ptt.edge(edge, ms);
                    self.act(action);
                    self.speculate();
                }
                Ok(Msg::Start) if self.recording.is_none() => self.act(Some(Action::Start)),
                Ok(Msg::Stop) if self.recording.is_some() => self.act(Some(Action::Stop)),
                Ok(Msg::Toggle) => {
                    let action = if self.recording.is_some() {
                        Action::Stop
                    } else {
                        Action::Start
                    };
                    self.act(Some(action));
                }
                Ok(Msg::Start | Msg::Stop) => {}
                Ok(Msg::Ended) => {
                    if self.recording.is_some() {
                        self.act(Some(Action::Stop));
                    }
                }
                Ok(Msg::Transcribed(generation, result)) => {
                    if generation != self.generation {
                        tracing::debug!("dropped a stale transcription");
                    } else if self.speculative == Some(generation) {
                        self.early = Some(result);
                    } else {
                        self.transcribed(result);
                    }
                }
                Ok(Msg::Configure(config)) => self.configure(config),
                Err(RecvTimeoutError::Timeout) => {
                    let action = self.ptt.tick(self.millis(Instant::now()));
                    self.act(action);
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }

    fn millis(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.epoch).as_millis() as u64
    }

    fn emit(&self, event: VoiceEvent) {
        (self.sink)(event);
    }

    fn set_state(&self, state: VoiceState) {
        if let Ok(mut s) = self.state.lock() {
            *s = state;
        }
        self.emit(VoiceEvent::State { state });
    }

    fn act(&mut self, action: Option<Action>) {
        match action {
            Some(Action::Start) => self.start(),
            Some(Action::Stop) => self.stop(),
            None => {}
        }
    }

    fn start(&mut self) {
        if self.transcribing {
            self.ptt.set_recording(false);
            self.emit(VoiceEvent::Notice {
                message: "Still transcribing the last recording; try again in a moment.".into(),
            });
            return;
        }
        if !self.config.model.is_file() {
            self.ptt.set_recording(false);
            let model = self
                .config
                .model
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.config.model.display().to_string());
            self.emit(VoiceEvent::NoModel { model });
            return;
        }
        let sink = Arc::clone(&self.sink);
        let tx = self.tx.clone();
        let started = Recording::start(
            &self.config.capture,
            move |level| sink(VoiceEvent::Level { level }),
            move |_ended: &Ended| {
                let _ = tx.send(Msg::Ended);
            },
        );
        match started {
            Ok(recording) => {
                self.recording = Some(recording);
                self.repeat_pairs = false;
                self.ptt.set_recording(true);
                self.set_state(VoiceState::Listening);
                // The model loads while the user speaks; errors show at transcription.
                let transcriber = Arc::clone(&self.transcriber);
                std::thread::spawn(move || {
                    if let Err(e) = transcriber.load() {
                        tracing::debug!("Whisper warm-up: {e}");
                    }
                });
            }
            Err(e) => {
                self.ptt.set_recording(false);
                self.emit(VoiceEvent::Error {
                    message: e.to_string(),
                });
            }
        }
    }

    /// A release is pending (hold mode): transcribe what was said up to it now. A press
    /// within the gap makes that transcription stale.
    fn speculate(&mut self) {
        let pending = self.ptt.deadline().is_some() && self.ptt.mode() == Mode::Hold;
        match (&self.recording, pending, self.speculative) {
            (Some(_), true, None) if self.repeat_pairs => {}
            (Some(recording), true, None) => match recording.snapshot() {
                Ok(samples) => {
                    self.generation += 1;
                    let generation = self.generation;
                    self.speculative = Some(generation);
                    let (transcriber, tx) = (Arc::clone(&self.transcriber), self.tx.clone());
                    std::thread::spawn(move || {
                        let result = guarded(|| transcriber.transcribe(&samples));
                        let _ = tx.send(Msg::Transcribed(generation, result));
                    });
                }
                Err(e) => tracing::debug!("no early transcription: {e}"),
            },
            (Some(_), false, Some(_)) => {
                // Auto-repeat: the key is still held.
                tracing::debug!("auto-repeat pair: the early transcription is dropped");
                self.repeat_pairs = true;
                self.speculative = None;
                self.early = None;
                self.generation += 1;
            }
            _ => {}
        }
    }

    fn stop(&mut self) {
        self.ptt.set_recording(false);
        let Some(recording) = self.recording.take() else {
            return;
        };
        self.transcribing = true;
        self.set_state(VoiceState::Transcribing);
        if self.speculative.take().is_some() {
            // The audio up to the release is being transcribed already.
            std::thread::spawn(move || drop(recording));
            if let Some(result) = self.early.take() {
                self.transcribed(result);
            }
            return;
        }
        self.generation += 1;
        let generation = self.generation;
        let transcriber = Arc::clone(&self.transcriber);
        let (tx, sink, max) = (
            self.tx.clone(),
            Arc::clone(&self.sink),
            self.config.capture.max,
        );
        std::thread::spawn(move || {
            let result = guarded(|| {
                recording.stop().and_then(|captured| {
                    if let Some(message) = captured.ended.message(max) {
                        sink(VoiceEvent::Notice { message });
                    }
                    transcriber.transcribe(&captured.samples)
                })
            });
            let _ = tx.send(Msg::Transcribed(generation, result));
        });
    }

    fn transcribed(&mut self, result: Result<Transcript, VoiceError>) {
        self.transcribing = false;
        match result {
            Ok(t) if t.text.trim().is_empty() => self.emit(VoiceEvent::NothingHeard),
            Ok(t) => self.emit(VoiceEvent::Heard {
                text: t.text,
                speech_secs: t.speech_secs,
                whisper_ms: t.took.as_millis() as u64,
            }),
            Err(e) => self.emit(VoiceEvent::Error {
                message: e.to_string(),
            }),
        }
        if self.recording.is_none() {
            self.set_state(VoiceState::Idle);
        }
    }

    fn configure(&mut self, config: ListenerConfig) {
        self.ptt.set_mode(config.mode);
        if config.model != self.config.model || config.language != self.config.language {
            self.transcriber = Arc::new(Transcriber::new(&config.model, &config.language));
        }
        self.config = config;
    }
}

/// Runs `work`; a panic in there becomes an error, so the session always hears back and
/// leaves "transcribing".
fn guarded(
    work: impl FnOnce() -> Result<Transcript, VoiceError>,
) -> Result<Transcript, VoiceError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|_| {
        Err(VoiceError::Transcribe(
            "the recording could not be processed (an internal error; see the log)".into(),
        ))
    })
}
