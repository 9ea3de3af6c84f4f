//! Context pressure (seed 003): counting tokens, compacting the conversation so every
//! request fits the model's window, and compressing large tool outputs before they enter
//! the history (rule-based TACO). Pure functions over the message list; the loop decides
//! when to call them.
//!
//! - Soft compaction (over `softRatio` of the window): old tool outputs shrink to their
//!   first and last lines.
//! - Hard compaction (over `hardRatio`): older turns fold into a summary appended to the
//!   task's first turn. The system prompt and the request are never evicted, nor is the
//!   latest plan; whole turns go, so no tool result loses its call.
//! - After any compaction, tool results whose call is gone are dropped (seed 003).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use crate::model::{Message, Role, ToolSpec};

/// Tokens counted for an image (a downscaled screenshot), whatever its size.
pub const IMAGE_TOKENS: usize = 800;
/// Tokens of framing per message (role, separators).
const MESSAGE_OVERHEAD: usize = 4;

/// The tokenizer while it is held: loaded on first use (60 ms), let go when the app
/// rests (`let_go_of_the_tokenizer`): its tables are ~25 MiB that an idle app need not
/// hold. `Some(None)` remembers that it could not be loaded.
static BPE: Mutex<Option<Option<Arc<tiktoken_rs::CoreBPE>>>> = Mutex::new(None);

fn bpe() -> Option<Arc<tiktoken_rs::CoreBPE>> {
    let mut held = BPE.lock().unwrap_or_else(PoisonError::into_inner);
    held.get_or_insert_with(|| match tiktoken_rs::cl100k_base() {
        Ok(bpe) => Some(Arc::new(bpe)),
        Err(e) => {
            tracing::warn!("no tokenizer ({e}); counting 4 characters as a token");
            None
        }
    })
    .clone()
}

/// Lets go of the tokenizer's tables (a count in progress keeps its own hold); the next
/// count loads them again. Whether it was held.
pub fn let_go_of_the_tokenizer() -> bool {
    let mut held = BPE.lock().unwrap_or_else(PoisonError::into_inner);
    matches!(held.take(), Some(Some(_)))
}

/// Tokens in `text` (cl100k; 4 characters per token if the tokenizer is unavailable).
///
/// The text goes to the tokenizer in bounded pieces (see `pieces`): its regex and its
/// byte-pair merge grow much worse than linearly on a long run with no break (1 MB of
/// unbroken DNA overflowed the stack; 300 K characters took 44 s). Ordinary text is cut
/// only before white space, where the tokenizer cuts too, so its count does not change.
pub fn count_text(text: &str) -> usize {
    match bpe() {
        Some(bpe) => pieces(text).map(|p| bpe.encode_ordinary(p).len()).sum(),
        None => text.len().div_ceil(4),
    }
}

/// Longest piece, in bytes, cut before white space.
const PIECE_BYTES: usize = 1024;
/// Longest piece, in bytes, of a run with no white space in `PIECE_BYTES` (a hard cut;
/// it may add a token per cut).
const RUN_BYTES: usize = 128;

/// `text` in pieces of at most `PIECE_BYTES`, each ending just before white space where
/// there is some, otherwise cut hard (at a character boundary) after `RUN_BYTES`. Linear:
/// each byte is looked at a bounded number of times.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        if rest.len() <= PIECE_BYTES {
            return Some(std::mem::take(&mut rest));
        }
        let window = &rest[..floor_char_boundary(rest, PIECE_BYTES)];
        // Just before the last white space (the tokenizer attaches one space to the word
        // after it); never at 0, which would make no progress.
        let cut = window
            .char_indices()
            .rev()
            .find(|&(i, c)| i > 0 && c.is_whitespace())
            .map(|(i, _)| i)
            .unwrap_or_else(|| floor_char_boundary(rest, RUN_BYTES).max(first_char_len(rest)));
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn first_char_len(text: &str) -> usize {
    text.chars().next().map_or(0, char::len_utf8)
}

/// Counts messages, remembering each message's count (a conversation is re-counted
/// before every request, and most of it has not changed). One counter serves one task,
/// whose tool list does not change, so the specs are counted once.
#[derive(Default)]
pub struct Counter {
    cache: HashMap<u64, usize>,
    spec_tokens: Option<usize>,
}

impl Counter {
    pub fn message(&mut self, m: &Message) -> usize {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        m.content.hash(&mut h);
        for call in &m.tool_calls {
            call.name.hash(&mut h);
            call.arguments.to_string().hash(&mut h);
        }
        let key = h.finish();
        let text = *self.cache.entry(key).or_insert_with(|| {
            let calls: usize = m
                .tool_calls
                .iter()
                .map(|c| count_text(&c.name) + count_text(&c.arguments.to_string()))
                .sum();
            count_text(&m.content) + calls
        });
        text + MESSAGE_OVERHEAD + m.images.len() * IMAGE_TOKENS
    }

    /// The whole request: every message and the tool specs offered with it.
    pub fn request(&mut self, messages: &[Message], tools: &[ToolSpec]) -> usize {
        let specs = match (tools.is_empty(), self.spec_tokens) {
            (true, _) => 0,
            (false, Some(n)) => n,
            (false, None) => {
                let n = tools
                    .iter()
                    .map(|t| {
                        count_text(&format!("{}\n{}\n{}", t.name, t.description, t.parameters))
                            + MESSAGE_OVERHEAD
                    })
                    .sum();
                self.spec_tokens = Some(n);
                n
            }
        };
        messages.iter().map(|m| self.message(m)).sum::<usize>() + specs
    }
}

/// Whether `m` is an observation from a tool (a tool turn, or a planner-protocol user turn
/// carrying wrapped tool output).
fn is_observation(m: &Message) -> bool {
    m.role == Role::Tool || (m.role == Role::User && m.content.contains("<untrusted_data"))
}

/// Shrinks every observation but the last `keep_last` to its first and last lines. True
/// when something changed.
pub fn soft_compact(messages: &mut [Message], keep_last: usize) -> bool {
    let observations: Vec<usize> = (0..messages.len())
        .filter(|&i| is_observation(&messages[i]))
        .collect();
    let old = observations.len().saturating_sub(keep_last);
    let mut changed = false;
    for &i in &observations[..old] {
        if let Some(short) = digest(&messages[i].content) {
            messages[i].content = short;
            messages[i].images.clear();
            changed = true;
        }
    }
    changed
}

/// The first 5 and last 2 lines of a long text, with a count of what was left out.
fn digest(text: &str) -> Option<String> {
    const HEAD: usize = 5;
    const TAIL: usize = 2;
    if text.len() <= 400 || text.contains("[compacted:") {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= HEAD + TAIL + 1 {
        let cut: String = text.chars().take(300).collect();
        return Some(format!(
            "{cut}\n[compacted: {} more characters]",
            text.len() - cut.len()
        ));
    }
    let omitted = lines.len() - HEAD - TAIL;
    Some(format!(
        "{}\n[compacted: {omitted} lines left out to save context]\n{}",
        lines[..HEAD].join("\n"),
        lines[lines.len() - TAIL..].join("\n")
    ))
}

/// Where the summary of folded turns begins in the task's first turn.
const SUMMARY_HEAD: &str = "\n\n(Earlier steps of this task, compacted to save context:)\n";

/// The summary's line for what was left out of it: `- (N earlier lines left out)`.
fn gap_line(n: usize) -> String {
    format!("- ({n} earlier lines left out)")
}

fn gap_count(line: &str) -> Option<usize> {
    line.strip_prefix("- (")?
        .strip_suffix(" earlier lines left out)")?
        .parse()
        .ok()
}

/// Folds the turns between the task's first turn and the last `keep_tail` messages into
/// a summary appended to the first turn, which keeps at most `summary_lines` lines (the
/// first quarter and the latest, the middle counted as left out), so a long task's
/// summary cannot outgrow the window. The latest `propose_plan` turn is kept. True when
/// something changed.
pub fn hard_compact(messages: &mut Vec<Message>, keep_tail: usize, summary_lines: usize) -> bool {
    const PREFIX: usize = 2; // the system prompt and the task's first turn
    if messages.len() < PREFIX {
        return false;
    }
    let mut folded: Vec<Message> = Vec::new();
    if messages.len() > PREFIX + keep_tail {
        // Start the kept tail at an assistant turn, so no call is split from its results.
        let mut boundary = messages.len() - keep_tail;
        while boundary < messages.len() && messages[boundary].role != Role::Assistant {
            boundary += 1;
        }
        if boundary > PREFIX {
            folded = messages.drain(PREFIX..boundary).collect();
        }
    }
    // The latest plan and its report stay in the history, whole.
    let plan_at = folded.iter().rposition(|m| {
        m.tool_calls
            .iter()
            .any(|c| c.name == crate::tool::PROPOSE_PLAN)
    });
    let mut kept_plan = Vec::new();
    let mut added = Vec::new();
    let mut i = 0;
    while i < folded.len() {
        let m = &folded[i];
        if Some(i) == plan_at {
            kept_plan.push(m.clone());
            let ids: HashSet<&str> = m.tool_calls.iter().map(|c| c.id.as_str()).collect();
            while i + 1 < folded.len()
                && folded[i + 1]
                    .tool_call_id
                    .as_deref()
                    .is_some_and(|id| ids.contains(id))
            {
                kept_plan.push(folded[i + 1].clone());
                i += 1;
            }
            i += 1;
            continue;
        }
        added.extend(summary_line(m));
        i += 1;
    }
    let first = &mut messages[PREFIX - 1];
    let (task, mut lines) = match first.content.find(SUMMARY_HEAD) {
        Some(at) => (
            first.content[..at].to_string(),
            first.content[at + SUMMARY_HEAD.len()..]
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        ),
        None => (first.content.clone(), Vec::new()),
    };
    let before = lines.len();
    lines.extend(added.iter().flat_map(|a| a.lines().map(str::to_string)));
    let lines = bounded(lines, summary_lines);
    if folded.is_empty() && lines.len() == before {
        return false;
    }
    first.content = if lines.is_empty() {
        task
    } else {
        format!("{task}{SUMMARY_HEAD}{}", lines.join("\n"))
    };
    for (n, m) in kept_plan.into_iter().enumerate() {
        messages.insert(PREFIX + n, m);
    }
    drop_orphans(messages);
    true
}

/// At most `most` summary lines (one of them saying how many were left out): the first
/// quarter, then the latest.
fn bounded(lines: Vec<String>, most: usize) -> Vec<String> {
    let mut left_out = 0;
    let mut gap_at = None;
    let mut kept = Vec::with_capacity(lines.len());
    for line in lines {
        match gap_count(&line) {
            Some(n) => {
                left_out += n;
                gap_at = Some(kept.len());
            }
            None => kept.push(line),
        }
    }
    let room = most.saturating_sub(1);
    if left_out == 0 && kept.len() <= most {
        return kept;
    }
    if kept.len() <= room {
        kept.insert(gap_at.unwrap_or(0).min(kept.len()), gap_line(left_out));
        return kept;
    }
    let head = (room / 4).min(gap_at.unwrap_or(usize::MAX));
    let tail = room - head;
    left_out += kept.len() - head - tail;
    let mut out: Vec<String> = kept[..head].to_vec();
    out.push(gap_line(left_out));
    out.extend_from_slice(&kept[kept.len() - tail..]);
    out
}

/// One line for a folded message, if it says anything.
fn summary_line(m: &Message) -> Option<String> {
    let first_line = |text: &str| -> String {
        let inner = text
            .lines()
            .find(|l| {
                !l.trim().is_empty()
                    && !l.starts_with("<untrusted_data")
                    && !l.starts_with("</untrusted_data")
            })
            .unwrap_or("")
            .trim();
        inner.chars().take(160).collect()
    };
    match m.role {
        Role::Assistant if !m.tool_calls.is_empty() => Some(
            m.tool_calls
                .iter()
                .map(|c| {
                    let args: String = c.arguments.to_string().chars().take(120).collect();
                    format!("- called {} {args}", c.name)
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        Role::Assistant => {
            let text = first_line(&m.content);
            (!text.is_empty()).then(|| format!("- you said: {text}"))
        }
        Role::Tool => Some(format!("  → {}", first_line(&m.content))),
        Role::User if is_observation(m) => Some(format!("- {}", first_line(&m.content))),
        Role::User => Some(format!("- the user said: {}", first_line(&m.content))),
        Role::System => None,
    }
}

/// Removes tool results whose call is not in an earlier assistant turn. Returns how many.
pub fn drop_orphans(messages: &mut Vec<Message>) -> usize {
    let mut seen: HashSet<String> = HashSet::new();
    let before = messages.len();
    messages.retain(|m| {
        for c in &m.tool_calls {
            seen.insert(c.id.clone());
        }
        match (&m.role, &m.tool_call_id) {
            (Role::Tool, Some(id)) => seen.contains(id),
            _ => true,
        }
    });
    before - messages.len()
}

/// TACO, rule-based: a large output with runs of repeated lines folded and, when still
/// large, only its head and tail kept, with counts. `None` when it is small enough.
pub fn compress_output(text: &str, max_chars: usize) -> Option<String> {
    if text.chars().count() <= max_chars {
        return None;
    }
    // Fold runs of identical lines, and of lines that differ only in their digits.
    let mut folded: Vec<String> = Vec::new();
    let mut run: Option<(String, String, usize)> = None; // (shape, first line, count)
                                                         // A run of digits counts as one `#`: "file9" and "file10" have the same shape.
    let shape = |l: &str| {
        let mut out = String::with_capacity(l.len());
        for c in l.chars() {
            if c.is_ascii_digit() {
                if !out.ends_with('#') {
                    out.push('#');
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    let flush = |run: &mut Option<(String, String, usize)>, out: &mut Vec<String>| {
        if let Some((_, first, n)) = run.take() {
            if n > 2 {
                out.push(first);
                out.push(format!("[… {} more lines like it]", n - 1));
            } else {
                out.push(first);
                if n == 2 {
                    out.push("[… 1 more line like it]".into());
                }
            }
        }
    };
    for line in text.lines() {
        let s = shape(line);
        match &mut run {
            Some((current, _, n)) if *current == s => *n += 1,
            _ => {
                flush(&mut run, &mut folded);
                run = Some((s, line.to_string(), 1));
            }
        }
    }
    flush(&mut run, &mut folded);
    let total_lines = text.lines().count();
    let joined = folded.join("\n");
    if joined.chars().count() <= max_chars {
        return Some(format!(
            "[{total_lines} lines, repeated lines folded]\n{joined}"
        ));
    }
    let head_n = 30.min(folded.len());
    let tail_n = 10.min(folded.len() - head_n);
    let head = folded[..head_n].join("\n");
    let tail = folded[folded.len() - tail_n..].join("\n");
    let clip = |s: String, n: usize| crate::text::clip(&s, n);
    Some(format!(
        "[{total_lines} lines; showing the first {head_n} and last {tail_n} after folding repeats]\n{}\n[… {} lines left out …]\n{}",
        clip(head, max_chars * 2 / 3),
        folded.len() - head_n - tail_n,
        clip(tail, max_chars / 3)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolCall;
    use serde_json::json;

    #[test]
    fn pieces_cover_the_text_in_bounded_parts() {
        let texts = [
            String::new(),
            "short".to_string(),
            "word ".repeat(2000),
            "ACGT".repeat(100_000),
            "é".repeat(5000),
            format!("{}  \n\t {}", "x".repeat(3000), "héllo wörld ".repeat(300)),
            " ".repeat(5000),
        ];
        for text in &texts {
            let parts: Vec<&str> = pieces(text).collect();
            assert_eq!(parts.concat(), *text);
            assert!(parts
                .iter()
                .all(|p| p.len() <= PIECE_BYTES && !p.is_empty()));
        }
    }

    #[test]
    fn the_tokenizer_let_go_is_loaded_again_and_counts_the_same() {
        let text = "The quick brown fox jumps over the lazy dog, again and again.";
        let before = count_text(text);
        let held = let_go_of_the_tokenizer();
        if !held {
            println!("no tokenizer here: counts are by characters");
        }
        assert_eq!(count_text(text), before);
        assert_eq!(let_go_of_the_tokenizer(), held, "loaded again by the count");
    }

    #[test]
    fn ordinary_text_counts_as_the_tokenizer_does() {
        let Some(bpe) = bpe() else {
            println!("no tokenizer here: nothing to compare with");
            return;
        };
        let prose = "The quick brown fox jumps over the lazy dog, again and again. ".repeat(200);
        let code = "fn main() {\n    println!(\"{}\", 42);\n}\n\n".repeat(200);
        let table = "-rw-r--r-- 1 root root  4096 Nov 23 10:00 file.txt\n".repeat(200);
        for text in [prose, code, table] {
            let whole = bpe.encode_ordinary(&text).len();
            let counted = count_text(&text);
            // Cut only before white space: the same count, or within a token per cut.
            let cuts = pieces(&text).count();
            assert!(
                counted.abs_diff(whole) <= cuts,
                "{counted} vs {whole} over {cuts} pieces"
            );
        }
    }

    #[test]
    fn a_megabyte_without_a_break_is_counted_without_a_panic() {
        let dna = "ACGT".repeat(256 * 1024);
        let n = count_text(&dna);
        assert!(n > 1000 && n <= dna.len(), "{n}");
    }

    fn call(id: &str, name: &str) -> Message {
        Message::assistant_calls(
            "",
            vec![ToolCall {
                id: id.into(),
                name: name.into(),
                arguments: json!({"command": "seq 1 500"}),
            }],
        )
    }

    fn big() -> String {
        (1..=500).map(|i| format!("line {i}\n")).collect()
    }

    fn conversation(turns: usize) -> Vec<Message> {
        let mut m = vec![Message::system("rules"), Message::user("count things")];
        for t in 0..turns {
            m.push(call(&format!("c{t}"), "shell"));
            m.push(Message::tool_result(
                format!("c{t}"),
                crate::policy::wrap_untrusted("shell", &big()),
            ));
        }
        m
    }

    #[test]
    fn counting_is_close_to_the_real_tokenizer_and_cached() {
        let mut c = Counter::default();
        let m = Message::user("Hello world, this is a test.");
        let n = c.message(&m);
        assert!((8..=14).contains(&n), "{n}");
        assert_eq!(c.message(&m), n);
        let mut with_image = m.clone();
        with_image.images.push(crate::model::ImageData {
            media_type: "image/jpeg".into(),
            base64: "AA".into(),
        });
        assert_eq!(c.message(&with_image), n + IMAGE_TOKENS);
    }

    #[test]
    fn soft_compaction_shrinks_old_outputs_only() {
        let mut m = conversation(4);
        let mut c = Counter::default();
        let before = c.request(&m, &[]);
        assert!(soft_compact(&mut m, 2));
        let after = c.request(&m, &[]);
        assert!(
            after < before * 6 / 10,
            "two of four outputs shrink: {before} -> {after}"
        );
        assert!(m[3].content.contains("[compacted:"));
        assert!(
            m[9].content.contains("line 500"),
            "the newest output is whole"
        );
        assert!(!soft_compact(&mut m, 2), "nothing more to do");
    }

    #[test]
    fn hard_compaction_keeps_request_plan_and_pairs() {
        let mut m = conversation(6);
        // A plan in the middle, whose report must survive.
        m.insert(
            6,
            Message::assistant_calls(
                "",
                vec![ToolCall {
                    id: "p".into(),
                    name: "propose_plan".into(),
                    arguments: json!({"goal": "g"}),
                }],
            ),
        );
        m.insert(7, Message::tool_result("p", "The user approved the plan."));
        assert!(hard_compact(&mut m, 4, 40));
        assert_eq!(m[0].content, "rules");
        assert!(
            m[1].content.starts_with("count things"),
            "the request stays first"
        );
        assert!(m[1].content.contains("compacted to save context"));
        assert!(
            m.iter().any(|x| x.tool_call_id.as_deref() == Some("p")),
            "the plan's report is kept"
        );
        assert_eq!(drop_orphans(&mut m), 0, "no orphan left");
        // Every tool result answers a call made before it.
        let mut seen = HashSet::new();
        for x in &m {
            x.tool_calls.iter().for_each(|c| {
                seen.insert(c.id.clone());
            });
            if let Some(id) = &x.tool_call_id {
                assert!(seen.contains(id), "orphan {id}");
            }
        }
    }

    /// A long task compacted again and again: the summary stays within its lines, keeps
    /// the task's first steps and its latest, and counts every line it left out.
    #[test]
    fn the_summary_of_a_long_task_stays_bounded() {
        let mut m = conversation(2);
        let mut made = 2;
        for _ in 0..30 {
            for _ in 0..3 {
                m.push(call(&format!("c{made}"), "shell"));
                m.push(Message::tool_result(
                    format!("c{made}"),
                    format!("out {made}"),
                ));
                made += 1;
            }
            assert!(hard_compact(&mut m, 2, 12));
            let summary: Vec<&str> = m[1].content.lines().skip(3).collect();
            assert!(summary.len() <= 12, "{summary:?}");
            assert_eq!(m[1].content.matches("compacted to save context").count(), 1);
        }
        let summary: Vec<&str> = m[1].content.lines().skip(3).collect();
        // Two lines a step (the call, its result): every folded line is shown or counted.
        let shown = summary.iter().filter(|l| gap_count(l).is_none()).count();
        let left: usize = summary.iter().filter_map(|l| gap_count(l)).sum();
        assert_eq!(shown + left, 2 * (made - 1), "{summary:?}");
        assert!(summary[0].contains("called shell"), "{summary:?}");
        assert!(
            m[1].content.contains(&format!("out {}", made - 2)),
            "the latest kept"
        );
        // Squeezed to nothing, the summary is one line saying how much it left out.
        assert!(hard_compact(&mut m, 2, 0));
        let summary: Vec<&str> = m[1].content.lines().skip(3).collect();
        assert_eq!(summary.len(), 1, "{summary:?}");
        assert_eq!(gap_count(summary[0]), Some(2 * (made - 1)));
        assert!(!hard_compact(&mut m, 2, 0), "nothing more to fold");
    }

    #[test]
    fn orphans_are_dropped() {
        let mut m = vec![
            Message::system("s"),
            Message::user("u"),
            Message::tool_result("gone", "x"),
            call("c1", "shell"),
            Message::tool_result("c1", "ok"),
        ];
        assert_eq!(drop_orphans(&mut m), 1);
        assert_eq!(m.len(), 4);
    }

    #[test]
    fn large_outputs_are_folded_and_cut_with_counts() {
        assert_eq!(compress_output("short", 100), None);
        let repeated: String = (0..300)
            .map(|i| format!("ok: file{i}.txt copied\n"))
            .collect();
        let folded = compress_output(&repeated, 500).expect("compressed");
        assert!(folded.contains("[… 299 more lines like it]"), "{folded}");
        assert!(folded.len() < 200);
        let varied: String = (0..400)
            .map(|i| format!("{}\n", "abcdefghij".repeat(i % 7 + 1)))
            .collect();
        let cut = compress_output(&varied, 1000).expect("compressed");
        assert!(cut.contains("lines left out"), "{cut}");
        assert!(cut.chars().count() < 1300, "{}", cut.chars().count());
    }
}
