//! Text cut to fit where it is shown: a line in a table, a dialog's target, a log line, a
//! step in a prompt. Cuts fall between characters, never inside one.

/// `text` cut to at most `max` characters, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// What a command printed, as a person is shown it, cut to at most `max` characters:
/// output of one character a line (a program that iterated over a string and printed
/// each character: "/", "t", "m", "p" …, seen three times on the everyday bench) is
/// shown as the line those characters make; anything else as printed.
pub fn shown(printed: &str, max: usize) -> String {
    let lines: Vec<&str> = printed.trim().lines().collect();
    // A path's slashes and dots, or a blank line for a space: not a list of one-letter
    // or one-digit values, which stays as printed.
    let char_a_line = lines.len() >= 8
        && lines.iter().all(|l| l.chars().count() <= 1)
        && lines.iter().any(|l| matches!(*l, "/" | "." | "" | " "));
    if char_a_line {
        let joined: String = lines
            .iter()
            .map(|l| if l.is_empty() { " " } else { l })
            .collect();
        clip(&joined, max)
    } else {
        clip(printed.trim(), max)
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

/// The next draw below `n` of the tests' fixed generator, which moves `seed` on.
#[cfg(test)]
fn draw(seed: &mut u64, n: usize) -> usize {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*seed >> 33) as usize % n
}

/// `count` texts of up to `longest` characters drawn from `alphabet` by a fixed
/// generator (`seed`), for the tests that feed parsers text nobody wrote.
#[cfg(test)]
pub(crate) fn random_texts(alphabet: &str, count: usize, longest: u64, seed: u64) -> Vec<String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut seed = seed;
    (0..count)
        .map(|_| {
            (0..(seed % longest))
                .map(|_| alphabet[draw(&mut seed, alphabet.len())])
                .collect()
        })
        .collect()
}

/// `count` texts, each `each` of `pieces` joined, drawn by the same generator (`seed`),
/// for the tests that feed parsers joins of the words they read.
#[cfg(test)]
pub(crate) fn random_joins(pieces: &[&str], count: usize, each: usize, seed: u64) -> Vec<String> {
    let mut seed = seed;
    (0..count)
        .map(|_| {
            (0..each)
                .map(|_| pieces[draw(&mut seed, pieces.len())])
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_of_a_character_a_line_is_shown_as_its_line() {
        let path = "/tmp/zeta-files/notes";
        let printed: String = path.chars().map(|c| format!("{c}\n")).collect();
        assert_eq!(shown(&printed, 400), path);
        // Short output, or lines of words, stay as printed.
        assert_eq!(shown("a\nb\nc\n", 400), "a\nb\nc");
        assert_eq!(shown("alpha.log\nbeta.txt\n", 400), "alpha.log\nbeta.txt");
        let digits = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        assert_eq!(shown(digits, 400), digits.trim());
        let words: String = "two words".chars().map(|c| format!("{c}\n")).collect();
        assert_eq!(shown(&words, 400), "two words");
        assert_eq!(shown(&printed, 5), "/tmp/…");
    }

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
