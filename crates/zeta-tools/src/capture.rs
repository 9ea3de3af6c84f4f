//! Capped capture of a stream: keeps the first and last bytes, counts what was cut, and
//! recognises binary data so it is summarised instead of dumped.

/// Collects one stream, keeping at most `limit` bytes of head and of tail.
#[derive(Debug)]
pub struct Capture {
    limit: usize,
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    total: usize,
}

impl Capture {
    pub fn new(limit: usize) -> Self {
        Self {
            limit: limit.max(2),
            head: Vec::new(),
            tail: std::collections::VecDeque::new(),
            total: 0,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len();
        let room = self.limit.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        for &b in rest {
            if self.tail.len() == self.limit {
                self.tail.pop_front();
            }
            self.tail.push_back(b);
        }
    }

    pub fn total_bytes(&self) -> usize {
        self.total
    }

    /// The text, at most `max_chars` characters: half from the start, half from the end,
    /// with a marker saying how much was cut. Binary data becomes a one-line summary.
    pub fn render(&self, max_chars: usize) -> String {
        let mut all = self.head.clone();
        all.extend(self.tail.iter());
        if looks_binary(&all) {
            return format!("[binary output: {} bytes, not shown]", self.total);
        }
        let dropped_bytes = self.total - all.len();
        let head = String::from_utf8_lossy(&self.head);
        let tail_bytes: Vec<u8> = self.tail.iter().copied().collect();
        let tail = String::from_utf8_lossy(&tail_bytes);
        let text = format!("{head}{tail}");
        let count = text.chars().count();
        if dropped_bytes == 0 && count <= max_chars {
            return text;
        }
        let keep_head = max_chars / 2;
        let keep_tail = max_chars - keep_head;
        let head_part: String = text.chars().take(keep_head).collect();
        let tail_part: String = text
            .chars()
            .skip(count.saturating_sub(keep_tail).max(keep_head))
            .collect();
        let cut = self.total.saturating_sub(head_part.len() + tail_part.len());
        format!("{head_part}\n[… {cut} bytes cut …]\n{tail_part}")
    }
}

/// NUL bytes, or a large share of invalid UTF-8, mean binary.
fn looks_binary(bytes: &[u8]) -> bool {
    if bytes.contains(&0) {
        return true;
    }
    let text = String::from_utf8_lossy(bytes);
    let replaced = text
        .chars()
        .filter(|c| *c == char::REPLACEMENT_CHARACTER)
        .count();
    replaced * 10 > text.chars().count().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_kept_whole() {
        let mut c = Capture::new(100);
        c.push(b"hello\n");
        assert_eq!(c.render(100), "hello\n");
    }

    #[test]
    fn long_output_keeps_head_and_tail_with_a_marker() {
        let mut c = Capture::new(40);
        for i in 0..1000 {
            c.push(format!("line {i}\n").as_bytes());
        }
        let text = c.render(40);
        assert!(text.starts_with("line 0\nline 1\n"), "{text}");
        assert!(text.ends_with("line 999\n"), "{text}");
        assert!(text.contains("bytes cut"), "{text}");
        assert!(text.chars().count() < 80, "{text}");
    }

    #[test]
    fn binary_is_summarised() {
        let mut c = Capture::new(100);
        c.push(&[0x7f, b'E', b'L', b'F', 0, 1, 2, 0xff, 0xfe]);
        assert_eq!(c.render(100), "[binary output: 9 bytes, not shown]");
    }
}
