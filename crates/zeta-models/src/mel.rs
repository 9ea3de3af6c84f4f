//! Whisper's mel filterbank (librosa's `filters.mel(sr=16000, n_fft=400, n_mels)`: Slaney
//! mel scale, Slaney area normalisation), which a whisper.cpp ggml file carries. Computed
//! rather than shipped; a test compares it with openai-whisper's own `mel_filters.npz`.

/// Bins of a 400-point FFT at 16 kHz: 0..=8000 Hz.
pub const N_FFT_BINS: usize = 201;

/// `n_mels` rows of `N_FFT_BINS` weights, row-major.
pub fn filters(n_mels: usize) -> Vec<f32> {
    let sr = 16_000.0f64;
    let freqs: Vec<f64> = (0..N_FFT_BINS)
        .map(|i| i as f64 * (sr / 2.0) / (N_FFT_BINS - 1) as f64)
        .collect();
    let (min_mel, max_mel) = (hz_to_mel(0.0), hz_to_mel(sr / 2.0));
    let points: Vec<f64> = (0..n_mels + 2)
        .map(|i| mel_to_hz(min_mel + (max_mel - min_mel) * i as f64 / (n_mels + 1) as f64))
        .collect();
    let mut weights = vec![0f32; n_mels * N_FFT_BINS];
    for m in 0..n_mels {
        let (lo, mid, hi) = (points[m], points[m + 1], points[m + 2]);
        let norm = 2.0 / (hi - lo);
        for (k, f) in freqs.iter().enumerate() {
            let lower = (f - lo) / (mid - lo);
            let upper = (hi - f) / (hi - mid);
            weights[m * N_FFT_BINS + k] = (lower.min(upper).max(0.0) * norm) as f32;
        }
    }
    weights
}

// The Slaney scale: linear below 1 kHz, logarithmic above.
const F_SP: f64 = 200.0 / 3.0;
const MIN_LOG_HZ: f64 = 1000.0;
const MIN_LOG_MEL: f64 = MIN_LOG_HZ / F_SP;

fn logstep() -> f64 {
    6.4f64.ln() / 27.0
}

fn hz_to_mel(hz: f64) -> f64 {
    if hz >= MIN_LOG_HZ {
        MIN_LOG_MEL + (hz / MIN_LOG_HZ).ln() / logstep()
    } else {
        hz / F_SP
    }
}

fn mel_to_hz(mel: f64) -> f64 {
    if mel >= MIN_LOG_MEL {
        MIN_LOG_HZ * (logstep() * (mel - MIN_LOG_MEL)).exp()
    } else {
        F_SP * mel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_are_triangles_that_cover_the_spectrum() {
        let f = filters(80);
        assert_eq!(f.len(), 80 * N_FFT_BINS);
        assert!(f.iter().all(|w| w.is_finite() && *w >= 0.0));
        // Every filter has weight somewhere, and the 0 Hz bin belongs to none.
        for m in 0..80 {
            assert!(
                f[m * N_FFT_BINS..(m + 1) * N_FFT_BINS]
                    .iter()
                    .any(|w| *w > 0.0),
                "{m}"
            );
        }
        assert_eq!(f[0], 0.0);
    }
}
