//! Words as the judge sees them: the values a shell word can take when it can be known
//! statically (quotes removed, `~` and known variables expanded, braces expanded), or the
//! fact that it cannot; and paths normalised against the working folder.

use std::path::{Component, Path, PathBuf};

/// Most values one word may expand to (brace expansion, loop variables) before it counts
/// as unknown.
const MAX_VALUES: usize = 64;

/// One shell word after static expansion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// Every value it can take, or `None` when that depends on something only known when
    /// it runs (a variable from outside, a command's output).
    pub values: Option<Vec<String>>,
    /// The word as written.
    pub text: String,
    /// It holds the output of a download (`$(curl …)`, `<(wget …)`).
    pub fetched: bool,
}

impl Word {
    pub fn known(text: &str, values: Vec<String>) -> Self {
        let values = (values.len() <= MAX_VALUES).then_some(values);
        Self {
            values,
            text: text.to_string(),
            fetched: false,
        }
    }

    pub fn literal(text: &str) -> Self {
        Self::known(text, vec![text.to_string()])
    }

    pub fn unknown(text: &str) -> Self {
        Self {
            values: None,
            text: text.to_string(),
            fetched: false,
        }
    }

    /// Its one value, when it has exactly one.
    pub fn single(&self) -> Option<&str> {
        match self.values.as_deref() {
            Some([one]) => Some(one),
            _ => None,
        }
    }

    /// Every value joined to every value of `other` (a word written in parts).
    pub fn concat(&self, other: &Word) -> Word {
        let values = match (&self.values, &other.values) {
            (Some(a), Some(b)) if a.len() * b.len() <= MAX_VALUES => Some(
                a.iter()
                    .flat_map(|x| b.iter().map(move |y| format!("{x}{y}")))
                    .collect(),
            ),
            _ => None,
        };
        Word {
            values,
            text: format!("{}{}", self.text, other.text),
            fetched: self.fetched || other.fetched,
        }
    }
}

/// `~` and `~/…` at the start of an unquoted word.
pub fn expand_tilde(text: &str, home: &Path) -> Option<String> {
    if text == "~" {
        return Some(home.display().to_string());
    }
    text.strip_prefix("~/")
        .map(|rest| format!("{}/{rest}", home.display()))
}

/// Bash brace expansion of an unquoted word (`{a,b}`, `x{1..3}`), at most `MAX_VALUES`
/// results; a word without a valid brace group is itself.
pub fn expand_braces(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let Some(open) = bytes.iter().position(|b| *b == b'{') else {
        return vec![text.to_string()];
    };
    let mut depth = 0;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            b',' if depth == 1 => commas.push(i),
            _ => {}
        }
    }
    let Some(close) = close else {
        return vec![text.to_string()];
    };
    let (head, inner, tail) = (&text[..open], &text[open + 1..close], &text[close + 1..]);
    let parts: Vec<String> = if commas.is_empty() {
        match sequence(inner) {
            Some(parts) => parts,
            // `{x}` and `{}` stay as written.
            None => {
                return expand_braces(tail)
                    .into_iter()
                    .map(|t| format!("{head}{{{inner}}}{t}"))
                    .collect()
            }
        }
    } else {
        let mut parts = Vec::new();
        let mut start = open + 1;
        for &c in &commas {
            parts.push(text[start..c].to_string());
            start = c + 1;
        }
        parts.push(text[start..close].to_string());
        parts
    };
    let mut out = Vec::new();
    for part in parts {
        for rest in expand_braces(&format!("{part}{tail}")) {
            out.push(format!("{head}{rest}"));
            if out.len() > MAX_VALUES {
                return out;
            }
        }
    }
    out
}

/// `a..e` or `1..5` inside braces.
fn sequence(inner: &str) -> Option<Vec<String>> {
    let (a, b) = inner.split_once("..")?;
    if let (Ok(a), Ok(b)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let (lo, hi) = (a.min(b), a.max(b));
        if hi - lo > MAX_VALUES as i64 {
            return None;
        }
        return Some((lo..=hi).map(|n| n.to_string()).collect());
    }
    let (a, b) = (a.chars().next()?, b.chars().next()?);
    (a.is_ascii_alphabetic() && b.is_ascii_alphabetic())
        .then(|| (a.min(b)..=a.max(b)).map(String::from).collect())
}

/// The text of a `$'…'` string with its escapes decoded.
pub fn decode_ansi_c(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    let mut bytes: Vec<u8> = Vec::new();
    let flush = |bytes: &mut Vec<u8>, out: &mut String| {
        if !bytes.is_empty() {
            out.push_str(&String::from_utf8_lossy(bytes));
            bytes.clear();
        }
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut bytes, &mut out);
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\u{7}'),
            'e' | 'E' => out.push('\u{1b}'),
            '\\' | '\'' | '"' | '?' => out.push(e),
            'x' => {
                let mut hex = String::new();
                while hex.len() < 2 && chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                    hex.extend(chars.next());
                }
                match u8::from_str_radix(&hex, 16) {
                    Ok(b) => bytes.push(b),
                    Err(_) => out.push_str("\\x"),
                }
                continue;
            }
            '0'..='7' => {
                let mut oct = String::from(e);
                while oct.len() < 3 && chars.peek().is_some_and(|c| ('0'..='7').contains(c)) {
                    oct.extend(chars.next());
                }
                match u8::from_str_radix(&oct, 8) {
                    Ok(b) => bytes.push(b),
                    Err(_) => out.push('?'),
                }
                continue;
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
        flush(&mut bytes, &mut out);
    }
    flush(&mut bytes, &mut out);
    out
}

/// `path` made absolute against `cwd`, with `.`, `..` and repeated slashes resolved (not
/// following links).
pub fn normalize(path: &str, cwd: &Path) -> PathBuf {
    let joined = if path.starts_with('/') {
        PathBuf::from(path)
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::from("/");
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// Whether a path's last part is a glob that matches (nearly) everything in its folder:
/// `*`, `.*`, `.[!.]*`, `..?*`, `?*`, `[a-z]*`…
pub fn is_catch_all(part: &str) -> bool {
    let stripped: String = part.chars().filter(|c| !matches!(c, '.' | '?')).collect();
    stripped == "*"
        || part.starts_with(".[!.]")
        || part.starts_with(".[^.]")
        || (part.starts_with('[') && part.ends_with("]*"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand_like_bash() {
        assert_eq!(expand_braces("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(
            expand_braces("~/{.bashrc,.profile}"),
            ["~/.bashrc", "~/.profile"]
        );
        assert_eq!(expand_braces("x{1..3}"), ["x1", "x2", "x3"]);
        assert_eq!(expand_braces("{a,{b,c}}"), ["a", "b", "c"]);
        assert_eq!(expand_braces("{}"), ["{}"]);
        assert_eq!(expand_braces("{x}y"), ["{x}y"]);
    }

    #[test]
    fn ansi_c_strings_decode() {
        assert_eq!(decode_ansi_c(r"\x72\x6d"), "rm");
        assert_eq!(decode_ansi_c(r"\162\155"), "rm");
        assert_eq!(decode_ansi_c(r"a\tb\\"), "a\tb\\");
        assert_eq!(decode_ansi_c(r"\xc3\xa9"), "é");
    }

    #[test]
    fn paths_normalise() {
        let cwd = Path::new("/home/u/x");
        assert_eq!(normalize("..", cwd), Path::new("/home/u"));
        assert_eq!(normalize("/etc/./../", cwd), Path::new("/"));
        assert_eq!(normalize("./a//b/", cwd), Path::new("/home/u/x/a/b"));
        assert!(is_catch_all("*") && is_catch_all(".*") && is_catch_all(".[!.]*"));
        assert!(!is_catch_all("*.pyc") && !is_catch_all("node_modules"));
    }
}
