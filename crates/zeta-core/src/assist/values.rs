//! The values a text gives, and whether the task's outputs gave them: numbers (`1,234`,
//! `4.50`, `60G`), and dates, times and versions as written (`2026-03-04`, `10:05`,
//! `3.11.7`). A digit inside a word (`q3.csv`, `amd64`) is part of a name, not a value.
//! A number is grounded when an output (or the request) gives the same number, or one
//! that rounds to it at the precision the answer wrote; a date or version when an output
//! holds it as written.

/// One value found in a text.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A plain number, as written and as read.
    Number(String, f64),
    /// A date, a time, a version: compared as written.
    Literal(String),
}

impl Value {
    pub fn as_written(&self) -> &str {
        match self {
            Value::Number(s, _) | Value::Literal(s) => s,
        }
    }
}

/// Units a number may carry glued to it (`60G`, `12KB`, `5s`, `3rd`).
const UNITS: [&str; 22] = [
    "k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib", "t", "tb", "tib", "b", "s", "ms", "h",
    "x", "st", "nd", "rd", "th", "min",
];

/// The values `text` gives, in order.
pub fn values(text: &str) -> Vec<Value> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let glued_before = i > 0 && {
            let p = chars[i - 1];
            p.is_alphanumeric() || matches!(p, '_' | '/' | '.' | '-' | '$' | '#')
        };
        if !c.is_ascii_digit() || glued_before {
            // Skip the whole word a digit is glued into.
            if c.is_alphanumeric() || c == '_' {
                while i < chars.len() && (chars[i].is_alphanumeric() || "_.-/".contains(chars[i])) {
                    i += 1;
                }
            } else {
                i += 1;
            }
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (matches!(chars[i], '.' | ',' | ':' | '-')
                    && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit())))
        {
            i += 1;
        }
        let token: String = chars[start..i].iter().collect();
        // Letters glued after: a unit keeps the number, anything else makes it a name.
        let mut j = i;
        while j < chars.len() && chars[j].is_alphabetic() {
            j += 1;
        }
        let glued: String = chars[i..j].iter().collect::<String>().to_lowercase();
        // A separator and more of the word after it (`6.1.0-18-amd64`, `2.tar`).
        let joined = j == i
            && chars.get(i).is_some_and(|c| "-_./".contains(*c))
            && chars.get(i + 1).is_some_and(|c| c.is_alphanumeric());
        let named = !glued.is_empty() && !UNITS.contains(&glued.as_str())
            || chars
                .get(j)
                .is_some_and(|c| c.is_ascii_digit() || *c == '_')
            || joined;
        i = j;
        if named {
            continue;
        }
        out.push(read(&token));
    }
    out
}

/// A token of digits and separators as a number (`1,234.5`) or, with dashes, colons or
/// several dots, a literal.
fn read(token: &str) -> Value {
    let plain =
        !token.contains([':', '-']) && token.matches('.').count() <= 1 && thousands_ok(token);
    match token.replace(',', "").parse::<f64>() {
        Ok(n) if plain => Value::Number(token.to_string(), n),
        _ => Value::Literal(token.to_string()),
    }
}

/// Commas only between groups of three digits (`1,234`, not `3,4`).
fn thousands_ok(token: &str) -> bool {
    let whole = token.split('.').next().unwrap_or_default();
    let groups: Vec<&str> = whole.split(',').collect();
    groups.len() == 1 || groups[1..].iter().all(|g| g.len() == 3) && !groups[0].is_empty()
}

/// Decimals written after the point.
fn decimals(written: &str) -> i32 {
    written
        .split_once('.')
        .map(|(_, d)| d.len() as i32)
        .unwrap_or(0)
}

/// `value` appears among `sources`' values, or (a literal) in their text.
pub fn grounded(value: &Value, sources: &[&str], source_values: &[Value]) -> bool {
    match value {
        Value::Literal(s) => sources.iter().any(|t| t.contains(s.as_str())),
        Value::Number(written, n) => {
            let places = decimals(written);
            let scale = 10f64.powi(places);
            source_values.iter().any(|v| match v {
                Value::Number(_, m) => {
                    (m - n).abs() < 1e-9 || ((m * scale).round() / scale - n).abs() < 1e-9
                }
                // A number inside a date or version ("2026-03-04" gives 4 and 2026).
                Value::Literal(s) => s
                    .split(['-', ':', '.', ','])
                    .filter_map(|p| p.parse::<f64>().ok())
                    .any(|m| (m - n).abs() < 1e-9),
            })
        }
    }
}

/// The values of `answer` that none of `sources` gave.
pub fn ungrounded(answer: &str, sources: &[&str]) -> Vec<Value> {
    let source_values: Vec<Value> = sources.iter().flat_map(|s| values(s)).collect();
    let mut out: Vec<Value> = Vec::new();
    for v in values(answer) {
        if !grounded(&v, sources, &source_values) && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The shell expansions `text` writes (`$USER`, `${HOME}`, `$(whoami)`): the way a
/// command names a value, never the value (seen: `echo $USER` printed an empty line, and
/// "Your username on this machine is $USER." was answered).
pub fn expansions(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            i += 1;
            continue;
        }
        let start = i;
        let end = match chars.get(i + 1) {
            Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                Some(j)
            }
            Some(open @ ('{' | '(')) => {
                let close = if *open == '{' { '}' } else { ')' };
                chars[i + 2..]
                    .iter()
                    .position(|c| *c == close)
                    .map(|p| i + 2 + p + 1)
                    .filter(|e| *e > i + 3)
            }
            _ => None,
        };
        match end {
            Some(end) => {
                let token: String = chars[start..end].iter().collect();
                if !out.contains(&token) {
                    out.push(token);
                }
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests;
