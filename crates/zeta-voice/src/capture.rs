//! The microphone (cpal): one recording at a time from the configured or the default input
//! device, at its own rate and channel count, converted to 16 kHz mono when it stops.
//!
//! A recording ends when it is stopped, when it reaches its length cap (wall-clock time, so
//! a device that delivers faster than real time cannot end it early; the buffer never holds
//! more than the cap's worth of audio either), or when the device is lost: an error from
//! the stream, or no audio for [`STALL`]. It never hangs waiting for a device.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample};

use crate::{audio, VoiceError};

/// No audio for this long means the device is gone.
pub const STALL: Duration = Duration::from_secs(2);
/// How often the level meter reports.
pub const LEVEL_EVERY: Duration = Duration::from_millis(50);
const POLL: Duration = Duration::from_millis(10);
/// A device that does not open within this long is reported, not waited for.
pub const OPEN_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, PartialEq)]
pub struct CaptureOptions {
    /// A device name or id as `zeta doctor` lists them; `None` is the system default.
    pub device: Option<String>,
    /// The longest a recording runs.
    pub max: Duration,
}

/// Why a recording ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    Stopped,
    LengthCap,
    DeviceLost(String),
}

impl Ended {
    /// What the user is told, when there is something to tell.
    pub fn message(&self, max: Duration) -> Option<String> {
        match self {
            Ended::Stopped => None,
            Ended::LengthCap => Some(format!(
                "The recording stopped at its {} s limit (voice.maxRecordingSecs).",
                max.as_secs()
            )),
            Ended::DeviceLost(why) => Some(format!("The microphone was lost: {why}.")),
        }
    }
}

/// A finished recording.
#[derive(Debug, Clone)]
pub struct Captured {
    /// 16 kHz mono.
    pub samples: Vec<f32>,
    pub ended: Ended,
    /// The device's own rate and channel count.
    pub rate: u32,
    pub channels: u16,
}

/// A recording in progress; [`Recording::stop`] ends it and returns the audio.
pub struct Recording {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Raw>>,
    opened: Opened,
}

/// What the capture thread reports once the device runs.
#[derive(Clone)]
struct Opened {
    device: String,
    shared: Arc<Shared>,
    rate: u32,
    channels: u16,
    started: Instant,
}

/// What the capture thread hands back: interleaved samples at the device's format.
struct Raw {
    samples: Vec<f32>,
    channels: u16,
    rate: u32,
    ended: Ended,
}

impl Recording {
    /// Opens the device and starts recording. `on_level` gets the RMS level (0..1) every
    /// [`LEVEL_EVERY`]; `on_end` is called once if the recording ends by itself (cap or
    /// device loss), after which [`Recording::stop`] returns at once.
    pub fn start(
        options: &CaptureOptions,
        on_level: impl FnMut(f32) + Send + 'static,
        on_end: impl FnOnce(&Ended) + Send + 'static,
    ) -> Result<Self, VoiceError> {
        let stop = Arc::new(AtomicBool::new(false));
        let (ready_tx, ready_rx) = mpsc::sync_channel(1);
        let options = options.clone();
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("zeta-mic".into())
            .spawn(move || record(options, flag, ready_tx, on_level, on_end))
            .map_err(|e| VoiceError::Capture(format!("could not start the capture thread: {e}")))?;
        match ready_rx.recv_timeout(OPEN_TIMEOUT) {
            Ok(Ok(opened)) => Ok(Self {
                stop,
                thread: Some(thread),
                opened,
            }),
            Ok(Err(e)) => {
                let _ = thread.join();
                Err(e)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // The thread stays blocked in the device; it is told to stop if it returns.
                stop.store(true, Ordering::SeqCst);
                Err(VoiceError::Capture(format!(
                    "the input device did not open within {} s",
                    OPEN_TIMEOUT.as_secs()
                )))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = thread.join();
                Err(VoiceError::Capture(
                    "the capture thread ended before the device opened".into(),
                ))
            }
        }
    }

    /// The device's label.
    pub fn device(&self) -> &str {
        &self.opened.device
    }

    /// The audio so far as 16 kHz mono, while the recording goes on.
    pub fn snapshot(&self) -> Result<Vec<f32>, VoiceError> {
        let o = &self.opened;
        let samples = o
            .shared
            .buffer
            .lock()
            .map(|b| {
                let real_time = real_time_len(o.started.elapsed(), o.rate, o.channels);
                b[..b.len().min(real_time)].to_vec()
            })
            .map_err(|_| VoiceError::Capture("the recording's buffer lock was poisoned".into()))?;
        audio::to_whisper(&samples, usize::from(o.channels), o.rate)
    }

    /// Ends the recording and returns it as 16 kHz mono.
    pub fn stop(mut self) -> Result<Captured, VoiceError> {
        self.stop.store(true, Ordering::SeqCst);
        let raw = self
            .thread
            .take()
            .map(|t| t.join())
            .ok_or_else(|| VoiceError::Capture("the recording was already stopped".into()))?
            .map_err(|_| VoiceError::Capture("the capture thread panicked".into()))?;
        let samples = audio::to_whisper(&raw.samples, usize::from(raw.channels), raw.rate)?;
        Ok(Captured {
            samples,
            ended: raw.ended,
            rate: raw.rate,
            channels: raw.channels,
        })
    }
}

impl Drop for Recording {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The input devices as (id, label): the id is what `voice.inputDevice` takes.
pub fn input_device_ids() -> Result<Vec<(String, String)>, VoiceError> {
    let host = cpal::default_host();
    let devices = host
        .input_devices()
        .map_err(|e| VoiceError::Capture(format!("could not list input devices: {e}")))?;
    Ok(devices
        .filter_map(|d| Some((d.id().ok()?.to_string(), label(&d))))
        .collect())
}

/// The input device `name` (or the default one) and its native format, found the way a
/// recording finds it.
pub fn describe_input(name: Option<&str>) -> Result<String, VoiceError> {
    let _quiet = QuietAlsa::new();
    let device = open(name)?;
    let config = device
        .default_input_config()
        .map_err(|e| VoiceError::Capture(format!("{}: no input format: {e}", label(&device))))?;
    Ok(format!(
        "{} ({} Hz, {} channel(s), {:?})",
        label(&device),
        config.sample_rate(),
        config.channels(),
        config.sample_format()
    ))
}

fn label(device: &cpal::Device) -> String {
    let name = device.description().map(|d| d.name().to_string()).ok();
    let id = device.id().map(|i| i.to_string()).ok();
    match (name, id) {
        (Some(n), Some(i)) if n != i => format!("{n} ({i})"),
        (Some(n), _) => n,
        (None, Some(i)) => i,
        (None, None) => "an unnamed device".into(),
    }
}

/// While it lives, alsa-lib's own complaints on this thread ("ALSA lib confmisc.c…
/// cannot find card '0'") go to a buffer that is logged at debug level, not to the
/// terminal: the error Zeta returns already says what is wrong in words.
struct QuietAlsa(Option<std::rc::Rc<std::cell::RefCell<alsa::Output>>>);

impl QuietAlsa {
    fn new() -> Self {
        Self(alsa::Output::local_error_handler().ok())
    }
}

impl Drop for QuietAlsa {
    fn drop(&mut self) {
        if let Some(buffer) = &self.0 {
            let text = buffer.borrow().to_string();
            if !text.trim().is_empty() {
                tracing::debug!("alsa-lib said: {}", text.trim());
            }
        }
    }
}

fn open(name: Option<&str>) -> Result<cpal::Device, VoiceError> {
    let host = cpal::default_host();
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return host.default_input_device().ok_or(VoiceError::NoInputDevice);
    };
    let devices = host
        .input_devices()
        .map_err(|e| VoiceError::Capture(format!("could not list input devices: {e}")))?;
    let mut seen = Vec::new();
    for device in devices {
        let id = device.id().map(|i| i.to_string()).ok();
        let desc = device.description().map(|d| d.name().to_string()).ok();
        if id.as_deref() == Some(name) || desc.as_deref() == Some(name) {
            return Ok(device);
        }
        seen.push(label(&device));
    }
    Err(VoiceError::DeviceNotFound {
        name: name.to_string(),
        available: if seen.is_empty() {
            "none".into()
        } else {
            seen.join(", ")
        },
    })
}

/// Shared between the stream's callbacks and the capture thread.
struct Shared {
    buffer: Mutex<Vec<f32>>,
    cap: usize,
    /// Sum of squares and count since the last level report.
    meter: Mutex<(f64, u64)>,
    frames: AtomicU64,
    error: Mutex<Option<String>>,
    /// Set when the recording is over: a stream left running (lost device) keeps nothing.
    closed: AtomicBool,
}

type Ready = mpsc::SyncSender<Result<Opened, VoiceError>>;

/// How many interleaved samples `lasted` of real time holds.
fn real_time_len(lasted: Duration, rate: u32, channels: u16) -> usize {
    (lasted.as_secs_f64() * f64::from(rate)) as usize * usize::from(channels)
}

fn record(
    options: CaptureOptions,
    stop: Arc<AtomicBool>,
    ready: Ready,
    mut on_level: impl FnMut(f32),
    on_end: impl FnOnce(&Ended),
) -> Raw {
    let fail = |ready: &Ready, e: VoiceError| {
        let _ = ready.send(Err(e));
        Raw {
            samples: Vec::new(),
            channels: 1,
            rate: audio::WHISPER_RATE,
            ended: Ended::Stopped,
        }
    };
    let device = match open(options.device.as_deref()) {
        Ok(d) => d,
        Err(e) => return fail(&ready, e),
    };
    let name = label(&device);
    let config = match device.default_input_config() {
        Ok(c) => c,
        Err(e) => {
            return fail(
                &ready,
                VoiceError::Capture(format!("{name}: no input format: {e}")),
            )
        }
    };
    let (rate, channels) = (config.sample_rate(), config.channels());
    let cap = (options.max.as_secs_f64() * f64::from(rate) * f64::from(channels)) as usize;
    let shared = Arc::new(Shared {
        buffer: Mutex::new(Vec::with_capacity(cap.min(rate as usize * 30))),
        cap,
        meter: Mutex::new((0.0, 0)),
        frames: AtomicU64::new(0),
        error: Mutex::new(None),
        closed: AtomicBool::new(false),
    });
    let stream = match build(&device, &config, Arc::clone(&shared)) {
        Ok(s) => s,
        Err(e) => return fail(&ready, VoiceError::Capture(format!("{name}: {e}"))),
    };
    if let Err(e) = stream.play() {
        return fail(
            &ready,
            VoiceError::Capture(format!("{name}: could not start: {e}")),
        );
    }
    tracing::info!(device = %name, rate, channels, format = %config.sample_format(), "recording");
    let started = Instant::now();
    let _ = ready.send(Ok(Opened {
        device: name,
        shared: Arc::clone(&shared),
        rate,
        channels,
        started,
    }));

    let (mut last_level, mut last_frames, mut last_data) = (started, 0, started);
    let ended = loop {
        std::thread::sleep(POLL);
        let now = Instant::now();
        if stop.load(Ordering::SeqCst) {
            break Ended::Stopped;
        }
        if let Some(e) = shared.error.lock().ok().and_then(|mut e| e.take()) {
            break Ended::DeviceLost(e);
        }
        let frames = shared.frames.load(Ordering::Relaxed);
        if frames != last_frames {
            (last_frames, last_data) = (frames, now);
        } else if now - last_data >= STALL {
            break Ended::DeviceLost(format!("no audio for {} s", STALL.as_secs()));
        }
        if now - started >= options.max {
            break Ended::LengthCap;
        }
        if now - last_level >= LEVEL_EVERY {
            last_level = now;
            if let Ok(mut m) = shared.meter.lock() {
                if m.1 > 0 {
                    on_level(((m.0 / m.1 as f64).sqrt() as f32).min(1.0));
                }
                *m = (0.0, 0);
            }
        }
    };
    let lasted = started.elapsed();
    shared.closed.store(true, Ordering::SeqCst);
    if matches!(ended, Ended::DeviceLost(_)) {
        // A lost device can leave the stream's own thread blocked in a read that never
        // returns; dropping the stream would join it and hang here. Leak it instead.
        std::mem::forget(stream);
    } else {
        drop(stream);
    }
    if ended != Ended::Stopped {
        tracing::warn!(?ended, "the recording ended by itself");
        on_end(&ended);
    }
    let mut samples = shared
        .buffer
        .lock()
        .map(|mut b| std::mem::take(&mut *b))
        .unwrap_or_default();
    // Cut a faster-than-real-time source to how long the recording lasted; what a lost
    // device delivered before it went quiet is all kept.
    if !matches!(ended, Ended::DeviceLost(_)) {
        samples.truncate(real_time_len(lasted, rate, channels));
    }
    Raw {
        samples,
        channels,
        rate,
        ended,
    }
}

fn build(
    device: &cpal::Device,
    config: &cpal::SupportedStreamConfig,
    shared: Arc<Shared>,
) -> Result<cpal::Stream, String> {
    match config.sample_format() {
        SampleFormat::F32 => stream::<f32>(device, config, shared),
        SampleFormat::F64 => stream::<f64>(device, config, shared),
        SampleFormat::I8 => stream::<i8>(device, config, shared),
        SampleFormat::I16 => stream::<i16>(device, config, shared),
        SampleFormat::I32 => stream::<i32>(device, config, shared),
        SampleFormat::U8 => stream::<u8>(device, config, shared),
        SampleFormat::U16 => stream::<u16>(device, config, shared),
        SampleFormat::U32 => stream::<u32>(device, config, shared),
        other => Err(format!("the sample format {other} is not supported")),
    }
}

fn stream<T>(
    device: &cpal::Device,
    config: &cpal::SupportedStreamConfig,
    shared: Arc<Shared>,
) -> Result<cpal::Stream, String>
where
    T: SizedSample,
    f32: FromSample<T>,
{
    let channels = u64::from(config.channels().max(1));
    let errors = Arc::clone(&shared);
    device
        .build_input_stream(
            config.config(),
            move |data: &[T], _: &cpal::InputCallbackInfo| {
                if shared.closed.load(Ordering::Relaxed) {
                    return;
                }
                let (mut sum, n) = (0.0f64, data.len());
                if let Ok(mut buffer) = shared.buffer.lock() {
                    let room = shared.cap.saturating_sub(buffer.len());
                    for (i, s) in data.iter().enumerate() {
                        let v = f32::from_sample_(*s);
                        sum += f64::from(v * v);
                        if i < room {
                            buffer.push(v);
                        }
                    }
                }
                if let Ok(mut m) = shared.meter.lock() {
                    m.0 += sum;
                    m.1 += n as u64;
                }
                shared
                    .frames
                    .fetch_add(n as u64 / channels, Ordering::Relaxed);
            },
            move |e: cpal::Error| {
                if matches!(
                    e.kind(),
                    cpal::ErrorKind::Xrun | cpal::ErrorKind::DeviceChanged
                ) {
                    tracing::debug!("microphone: {e}");
                } else if let Ok(mut slot) = errors.error.lock() {
                    slot.get_or_insert_with(|| e.to_string());
                }
            },
            None,
        )
        .map_err(|e| e.to_string())
}
