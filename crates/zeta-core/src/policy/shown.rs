//! How a call's text is shown to the person approving it: whole, with every character
//! that would change how the rest looks made visible (a carriage return that lets the
//! end of a line print over its start, a terminal escape sequence that erases it,
//! backspaces, zero-width characters), so the prompt cannot show one command while
//! another runs. Text with bidirectional controls (which reorder what follows) cannot be
//! shown as it runs: a call holding them is refused, with the reason.

/// Bidirectional formatting controls: they reorder the characters after them.
const BIDI: &[char] = &[
    '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
];

/// Characters that take no space: shown by name.
const INVISIBLE: &[char] = &[
    '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}', '\u{180E}',
];

/// `text` as it can be shown: line breaks and tabs as they are, every other control
/// character and invisible one as an escape (`\r`, `\e`, `\b`, `\x07`, `\u{200b}`).
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            '\u{8}' => out.push_str("\\b"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if INVISIBLE.contains(&c) || BIDI.contains(&c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Why `text` cannot be shown as it will run, if it cannot.
pub fn unshowable(text: &str) -> Option<String> {
    text.chars().find(|c| BIDI.contains(c)).map(|c| {
        format!(
            "it contains a character that reorders how the text after it is displayed \
             (U+{:04X}), so no prompt can show it as it would run",
            c as u32
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Families of prompts built to show one thing while another runs: each must show
    /// the hidden part, and none may keep a character that moves the cursor or erases.
    #[test]
    fn spoofed_prompts_show_what_runs() {
        let hidden = "rm -rf ~/Documents";
        let cases: Vec<String> = vec![
            format!("echo backup\r{hidden}"),
            format!("{hidden}\recho backup done                    "),
            format!("{hidden} \x1b[2K\x1b[1Gecho hello"),
            format!("{hidden}; \x1b[1A\x1b[2Kls"),
            format!("{hidden}\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08ls -la   "),
            format!("ls \x1b]0;title\x07{hidden}"),
            format!("ls\u{200B}; {hidden}"),
            format!("echo {}; {hidden}", " ".repeat(5000)),
            format!("ls\x00; {hidden}"),
            format!("ls\x7f{hidden}"),
            format!("ls \u{9b}2K{hidden}"),
        ];
        for case in &cases {
            let shown = visible(case);
            assert!(shown.contains(hidden), "{shown:?}");
            assert!(
                !shown
                    .chars()
                    .any(|c| (c.is_control() && c != '\n' && c != '\t') || INVISIBLE.contains(&c)),
                "{shown:?}"
            );
            assert!(unshowable(case).is_none(), "{case:?}");
        }
        for bidi in BIDI {
            let case = format!("rm -rf ~/x #{bidi}txt.gnp");
            assert!(unshowable(&case).is_some(), "{case:?}");
            assert!(!visible(&case).contains(*bidi));
        }
        // Ordinary text stays as it is: other scripts, emoji, tabs, new lines.
        let plain = "grep -r 'café' ~/notes\tand\necho 'שלום' 🎉";
        assert_eq!(visible(plain), plain);
        assert!(unshowable(plain).is_none());
    }
}
