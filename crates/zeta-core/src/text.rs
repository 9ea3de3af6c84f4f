//! Text cut to fit where it is shown: a line in a table, a dialog's target, a log line, a
//! step in a prompt. Cuts fall between characters, never inside one.

/// `text` cut to at most `max` characters, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `text` with every run of white space (newlines included) as one space.
pub fn flatten(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` on one line, cut to at most `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    clip(&flatten(text), max)
}

/// The words of `text`, lower case, with typographic apostrophes made plain ("I’ve" →
/// "i've"); anything but letters, digits and apostrophes separates them.
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace('\u{2019}', "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// `count` texts of up to `longest` characters drawn from `alphabet` by a fixed
/// generator (`seed`), for the tests that feed parsers text nobody wrote.
#[cfg(test)]
pub(crate) fn random_texts(alphabet: &str, count: usize, longest: u64, seed: u64) -> Vec<String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut seed = seed;
    (0..count)
        .map(|_| {
            let mut text = String::new();
            for _ in 0..(seed % longest) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
            }
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_fall_between_characters() {
        assert_eq!(clip("héllo wörld", 5), "héllo…");
        assert_eq!(clip("héllo", 5), "héllo");
        assert_eq!(clip("", 0), "");
        assert_eq!(clip("ab", 0), "…");
        assert_eq!(clip("日本語のテキスト", 3), "日本語…");
        assert_eq!(one_line("  a\n\tb  c\r\n", 10), "a b c");
        assert_eq!(one_line("line one\nline two", 6), "line o…");
        assert_eq!(flatten("x\n\ny"), "x y");
    }
}
