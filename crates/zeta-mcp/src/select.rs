//! Choosing the few tools that fit a request, by the words of their names and
//! descriptions (and their server's name), so a model is not handed every server's tools
//! every time: a small one reads each tool it is offered, slowly, and picks worse among
//! many. Words are compared by a crude stem ("files" and "file", "reading" and "read").
//! Tools that share no word with the request are not offered.

use std::collections::BTreeSet;

/// A tool to choose from.
pub struct Candidate<'a> {
    pub server: &'a str,
    pub tool: &'a str,
    pub description: &'a str,
}

/// Words too common to say what a request is about.
const STOP: [&str; 58] = [
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "from", "with", "by", "is",
    "are", "was", "be", "it", "its", "this", "that", "these", "those", "me", "my", "i", "you",
    "your", "we", "our", "can", "could", "would", "please", "what", "which", "who", "how", "do",
    "does", "did", "all", "any", "some", "there", "here", "get", "give", "show", "tell", "make",
    "use", "using", "into", "about", "as", "if",
];

fn stem(word: &str) -> String {
    let w = word.trim_matches('\'');
    if w.len() > 4 {
        if let Some(base) = w.strip_suffix("ies") {
            return format!("{base}y");
        }
        for suffix in ["ing", "ed"] {
            if let Some(base) = w.strip_suffix(suffix) {
                return base.to_string();
            }
        }
    }
    match w.strip_suffix('s') {
        Some(base) if w.len() > 3 && !base.ends_with('s') => base.to_string(),
        _ => w.to_string(),
    }
}

/// The meaningful words of `text`, stemmed; names are split at `_`, `-`, `.` and
/// lower-to-upper case changes (`readFile` → read, file).
fn terms(text: &str) -> BTreeSet<String> {
    let mut spaced = String::with_capacity(text.len());
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_uppercase() && previous_lower {
            spaced.push(' ');
        }
        previous_lower = c.is_lowercase();
        spaced.push(if matches!(c, '_' | '-' | '.' | '/') {
            ' '
        } else {
            c
        });
    }
    zeta_core::text::words(&spaced)
        .into_iter()
        .filter(|w| w.len() > 1 && !STOP.contains(&w.as_str()))
        .map(|w| stem(&w))
        .collect()
}

/// The indexes of the candidates to offer for `request`, best first, at most `limit`.
/// A tool's own name and description decide; its server's name counts only when no
/// tool's own words fit ("use github" offers the github server's tools; "create a
/// github issue" offers the one about issues).
pub fn choose(request: &str, candidates: &[Candidate<'_>], limit: usize) -> Vec<usize> {
    let asked = terms(request);
    let scored: Vec<(usize, usize, usize)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let name = terms(c.tool);
            let description = terms(c.description);
            let server = terms(c.server);
            let own = asked
                .iter()
                .map(|w| 3 * usize::from(name.contains(w)) + usize::from(description.contains(w)))
                .sum::<usize>();
            let by_server = asked.iter().filter(|w| server.contains(*w)).count();
            (i, own, by_server)
        })
        .collect();
    let any_own = scored.iter().any(|s| s.1 > 0);
    let mut kept: Vec<(usize, usize)> = scored
        .into_iter()
        .filter(|(_, own, by_server)| if any_own { *own > 0 } else { *by_server > 0 })
        .map(|(i, own, by_server)| (i, 3 * own + by_server))
        .collect();
    kept.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    kept.into_iter().take(limit).map(|(i, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<'a>(request: &str, all: &'a [Candidate<'a>], limit: usize) -> Vec<&'a str> {
        choose(request, all, limit)
            .into_iter()
            .map(|i| all[i].tool)
            .collect()
    }

    #[test]
    fn the_tools_about_the_request_are_chosen() {
        let all = [
            Candidate {
                server: "fs",
                tool: "read_file",
                description: "Read a text file",
            },
            Candidate {
                server: "fs",
                tool: "write_file",
                description: "Write text to a file",
            },
            Candidate {
                server: "fs",
                tool: "list_directory",
                description: "List the files in a folder",
            },
            Candidate {
                server: "weather",
                tool: "forecast",
                description: "The weather forecast for a city",
            },
            Candidate {
                server: "github",
                tool: "create_issue",
                description: "Open an issue in a repository",
            },
            Candidate {
                server: "github",
                tool: "listPullRequests",
                description: "Pull requests of a repository",
            },
        ];
        assert_eq!(
            names("read the file notes.txt", &all, 3),
            ["read_file", "write_file", "list_directory"]
        );
        assert_eq!(
            names("what's the weather in Paris tomorrow?", &all, 3),
            ["forecast"]
        );
        assert_eq!(
            names("list open pull requests", &all, 2),
            ["listPullRequests", "list_directory"]
        );
        assert_eq!(
            names("use github", &all, 5),
            ["create_issue", "listPullRequests"]
        );
        assert_eq!(names("open a github issue", &all, 5), ["create_issue"]);
        assert!(names("how much disk space is free", &all, 5).is_empty());
        assert!(names("", &all, 5).is_empty());
        assert_eq!(names("files", &all, 1), ["read_file"]);
    }

    #[test]
    fn stems_and_splits() {
        assert_eq!(stem("files"), "file");
        assert_eq!(stem("reading"), "read");
        assert_eq!(stem("queries"), "query");
        assert_eq!(stem("is"), "is");
        let t = terms("readFile list-dir get_URLs");
        for w in ["read", "file", "list", "dir", "url"] {
            assert!(t.contains(w), "{w}: {t:?}");
        }
    }
}
