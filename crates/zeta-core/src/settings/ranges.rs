//! Value ranges: each number the file sets must lie in its range, and a few fields have
//! rules of their own. A bad field is reported by name and set back to its default.

use std::fmt::Display;
use std::ops::RangeInclusive;

use super::{Settings, SettingsProblem};

/// Checks `value` against `range`; out of it, a problem names `field` and `value` becomes
/// `default`. `unit` follows the range in the message (" ms", " tokens", or "").
fn within<T: PartialOrd + Display + Copy>(
    problems: &mut Vec<SettingsProblem>,
    field: &str,
    value: &mut T,
    range: RangeInclusive<T>,
    unit: &str,
    default: T,
) {
    if !range.contains(value) {
        let said = |v: &T| amount(&v.to_string(), unit);
        problems.push(SettingsProblem {
            field: field.into(),
            message: format!(
                "must be from {} to {} (it is {}); using {}",
                said(range.start()),
                said(range.end()),
                said(value),
                said(&default)
            ),
        });
        *value = default;
    }
}

/// A number as a person reads it: thousands grouped, milliseconds as seconds, minutes or
/// hours ("30 s", "24 h"), other units after the number.
fn amount(number: &str, unit: &str) -> String {
    if unit.trim() == "ms" {
        if let Ok(ms) = number.parse::<f64>() {
            return duration(ms / 1000.0);
        }
    }
    let grouped = match number.parse::<i64>() {
        Ok(n) => group(n),
        Err(_) => number.to_string(),
    };
    format!("{grouped}{unit}")
}

/// `secs` in the largest unit that keeps it readable: "100 ms", "30 s", "5 min", "24 h".
fn duration(secs: f64) -> String {
    let trim = |v: f64| {
        let text = format!("{v:.1}");
        text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
    };
    match secs {
        s if s < 1.0 => format!("{} ms", (s * 1000.0).round()),
        s if s < 120.0 => format!("{} s", trim(s)),
        s if s < 7200.0 => format!("{} min", trim(s / 60.0)),
        s => format!("{} h", trim(s / 3600.0)),
    }
}

/// 86400000 → "86,400,000".
fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Checks value ranges; each bad field is reported and set back to its default.
pub(super) fn reset_out_of_range(s: &mut Settings, problems: &mut Vec<SettingsProblem>) {
    let d = Settings::default();
    let p = problems;
    within(
        p,
        "maxIterations",
        &mut s.max_iterations,
        1..=1000,
        "",
        d.max_iterations,
    );
    let timeout = &mut s.command_timeout_ms;
    within(
        p,
        "commandTimeoutMs",
        timeout,
        100..=86_400_000,
        " ms",
        d.command_timeout_ms,
    );
    let output = &mut s.max_output_length;
    within(
        p,
        "maxOutputLength",
        output,
        100..=10_000_000,
        "",
        d.max_output_length,
    );
    within(
        p,
        "undo.budgetMb",
        &mut s.undo.budget_mb,
        1..=10_000_000,
        " MB",
        d.undo.budget_mb,
    );
    within(
        p,
        "undo.keepDays",
        &mut s.undo.keep_days,
        1..=3650,
        " days",
        d.undo.keep_days,
    );
    let shot = &mut s.screenshot;
    within(
        p,
        "screenshot.maxSide",
        &mut shot.max_side,
        64..=8192,
        "",
        d.screenshot.max_side,
    );
    within(
        p,
        "screenshot.quality",
        &mut shot.quality,
        1..=100,
        "",
        d.screenshot.quality,
    );
    within(
        p,
        "permissions.approvalTimeoutSecs",
        &mut s.permissions.approval_timeout_secs,
        1..=86_400,
        " s",
        d.permissions.approval_timeout_secs,
    );
    let provider = &mut s.provider;
    within(
        p,
        "provider.keepWarmSecs",
        &mut provider.keep_warm_secs,
        0..=86_400,
        " s",
        d.provider.keep_warm_secs,
    );
    within(
        p,
        "provider.contextWindow",
        &mut provider.context_window,
        1024..=4_000_000,
        " tokens",
        d.provider.context_window,
    );
    within(
        p,
        "provider.replyTimeoutSecs",
        &mut provider.reply_timeout_secs,
        1..=86_400,
        " seconds",
        d.provider.reply_timeout_secs,
    );
    within(
        p,
        "provider.maxReplyBytes",
        &mut provider.max_reply_bytes,
        1024..=1024 * 1024 * 1024,
        " bytes",
        d.provider.max_reply_bytes,
    );
    within(
        p,
        "context.largeOutputChars",
        &mut s.context.large_output_chars,
        200..=1_000_000,
        "",
        d.context.large_output_chars,
    );
    within(
        p,
        "voice.maxRecordingSecs",
        &mut s.voice.max_recording_secs,
        1..=600,
        "",
        d.voice.max_recording_secs,
    );

    let mut bad = |field: &str, message: String| {
        p.push(SettingsProblem {
            field: field.into(),
            message,
        })
    };
    let url = s.provider.base_url.trim();
    if !url.is_empty() && !url.starts_with("http://") && !url.starts_with("https://") {
        bad(
            "provider.baseUrl",
            format!("{url:?} must start with http:// or https://; using none"),
        );
        s.provider.base_url = d.provider.base_url.clone();
    }
    if s.hotkey.push_to_talk.trim().is_empty() {
        bad(
            "hotkey.pushToTalk",
            format!("must not be empty; using {}", d.hotkey.push_to_talk),
        );
        s.hotkey.push_to_talk = d.hotkey.push_to_talk.clone();
    }
    let limit = s.permissions.default_rate_limit;
    if limit.per_task == 0 || limit.per_session < limit.per_task {
        let dl = d.permissions.default_rate_limit;
        bad(
            "permissions.defaultRateLimit",
            format!(
                "perTask {} / perSession {} must be at least 1 and perSession at least perTask; \
                 using {} / {}",
                limit.per_task, limit.per_session, dl.per_task, dl.per_session
            ),
        );
        s.permissions.default_rate_limit = dl;
    }
    let c = &s.context;
    if !(0.1..=1.0).contains(&c.soft_ratio)
        || !(0.1..=1.0).contains(&c.hard_ratio)
        || c.soft_ratio >= c.hard_ratio
    {
        bad(
            "context",
            format!(
                "softRatio {} and hardRatio {} must be within 0.1..=1.0 with softRatio below \
                 hardRatio; using {} and {}",
                c.soft_ratio, c.hard_ratio, d.context.soft_ratio, d.context.hard_ratio
            ),
        );
        s.context.soft_ratio = d.context.soft_ratio;
        s.context.hard_ratio = d.context.hard_ratio;
    }
}
