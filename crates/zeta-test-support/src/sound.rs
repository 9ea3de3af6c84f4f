//! Sound for the voice tests and benchmark, made by real programs: the raw format cpal
//! asks an ALSA file device for, so a recording can stand in for a microphone.

/// sox's output arguments for a microphone recording: raw 32-bit float, 48 kHz, stereo.
pub const MIC_RAW: [&str; 10] = [
    "-r",
    "48000",
    "-c",
    "2",
    "-b",
    "32",
    "-e",
    "floating-point",
    "-t",
    "raw",
];
