//! When to try a failed request again: exponential backoff with jitter, honouring the
//! server's Retry-After, within a fixed number of attempts.

use std::time::Duration;

use crate::error::LlmError;

#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1` after `error`, or `None` to give up.
    /// `attempt` counts from 1.
    pub fn delay_after(&self, attempt: u32, error: &LlmError) -> Option<Duration> {
        if !error.is_retryable() || attempt >= self.max_attempts {
            return None;
        }
        if let Some(wait) = error.retry_after() {
            return Some(wait.min(self.max_delay));
        }
        let exp = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(attempt - 1));
        // ±25 % jitter so that many clients do not retry in step.
        let jitter = 0.75 + fastrand::f64() * 0.5;
        Some(exp.mul_f64(jitter).min(self.max_delay))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_error() -> LlmError {
        LlmError::Server {
            endpoint: "x".into(),
            status: 500,
            body: String::new(),
        }
    }

    #[test]
    fn backoff_grows_with_jitter_and_stops_at_the_budget() {
        let p = RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(10),
        };
        let d1 = p.delay_after(1, &server_error()).expect("retry");
        let d3 = p.delay_after(3, &server_error()).expect("retry");
        assert!((75..=125).contains(&d1.as_millis()), "{d1:?}");
        assert!((300..=500).contains(&d3.as_millis()), "{d3:?}");
        assert_eq!(p.delay_after(4, &server_error()), None);
    }

    #[test]
    fn retry_after_is_honoured_and_permanent_errors_are_not_retried() {
        let p = RetryPolicy::default();
        let limited = LlmError::RateLimited {
            endpoint: "x".into(),
            retry_after: Some(Duration::from_secs(2)),
        };
        assert_eq!(p.delay_after(1, &limited), Some(Duration::from_secs(2)));
        let refused = LlmError::Client {
            endpoint: "x".into(),
            status: 401,
            body: "bad key".into(),
        };
        assert_eq!(p.delay_after(1, &refused), None);
    }
}
