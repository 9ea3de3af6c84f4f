//! The `SKILL.md` format, as Claude's and Codex's agents read it: YAML front matter
//! between two `---` lines with `name` and `description` (and optionally `allowed-tools`,
//! `license`, `metadata`), then the instructions in Markdown. Parsed here into a typed
//! `Skill`, or an error that says what is wrong and where.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::error::SkillError;

/// A `SKILL.md` larger than this is refused: the body is shown to a model whole.
pub const MOST_BYTES: usize = 64 * 1024;
/// The longest name: lower-case letters, digits and hyphens (the common format's rule).
pub const MOST_NAME: usize = 64;
/// The longest description (the common format's rule).
pub const MOST_DESCRIPTION: usize = 1024;

/// Where a skill comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Shipped inside Zeta.
    BuiltIn,
    /// A folder under the person's skills folder.
    Folder(PathBuf),
}

/// One skill, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    /// When it applies, in words: what choice reads.
    pub description: String,
    /// The tools it says it needs (`allowed-tools`), as written; informational.
    pub allowed_tools: Vec<String>,
    /// The instructions after the front matter.
    pub body: String,
    pub origin: Origin,
    /// Programs it needs on PATH (`metadata.requires`): offered only where they all are.
    pub requires: Vec<String>,
    /// Flags its commands use that the tests check against this machine's documentation
    /// (`metadata.checked-flags`, Zeta's own skills).
    pub checked_flags: Vec<String>,
    /// The files beside `SKILL.md` (relative paths, sorted), which the model may read.
    pub files: Vec<String>,
    /// SHA-256 of the `SKILL.md` text, hex: what the person's trust is given to.
    pub digest: String,
}

impl Skill {
    pub fn is_built_in(&self) -> bool {
        self.origin == Origin::BuiltIn
    }

    /// The folder it lives in, for one of the person's.
    pub fn folder(&self) -> Option<&Path> {
        match &self.origin {
            Origin::Folder(dir) => Some(dir),
            Origin::BuiltIn => None,
        }
    }

    /// What it gives, in a few words: the body's first `# ` heading, else the
    /// description (a small model is shown this beside the command).
    pub fn title(&self) -> &str {
        self.body
            .lines()
            .take_while(|l| !l.starts_with("```"))
            .find_map(|l| l.strip_prefix("# "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(&self.description)
    }

    /// The parameters its body declares, in a list after a line that starts with
    /// "Parameters" (as a learned skill's does: `- DIR: a folder`): names in capitals,
    /// digits and `_`. A skill that declares any (learned, or written so by the person)
    /// is a template for requests of one shape, its description written with them ("How
    /// many .EXT files are in DIR?").
    pub fn parameters(&self) -> Vec<&str> {
        let lines: Vec<&str> = self.body.lines().map(str::trim).collect();
        // The first "Parameters…" line that a list follows.
        let Some(at) = (0..lines.len()).find(|&i| {
            lines[i].starts_with("Parameters")
                && lines.get(i + 1).is_some_and(|l| l.starts_with("- "))
        }) else {
            return Vec::new();
        };
        lines[at + 1..]
            .iter()
            .map_while(|l| l.strip_prefix("- "))
            .filter_map(|l| l.split_once(':').map(|(name, _)| name.trim()))
            .filter(|name| {
                name.starts_with(|c: char| c.is_ascii_uppercase())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
            .collect()
    }

    /// The first fenced code block of the body, when it has one: the command a short
    /// procedure runs (shown to a small model as its example).
    pub fn first_command(&self) -> Option<&str> {
        let start = self.body.find("```")?;
        let rest = &self.body[start + 3..];
        let rest = &rest[rest.find('\n')? + 1..];
        let end = rest.find("```")?;
        Some(rest[..end].trim()).filter(|c| !c.is_empty())
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Front {
    name: Option<String>,
    description: Option<String>,
    allowed_tools: Option<Tools>,
    metadata: Option<Metadata>,
}

/// The keys of `metadata` Zeta reads; any others are the skill's own.
#[derive(Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
struct Metadata {
    #[serde(default)]
    requires: Vec<String>,
    #[serde(default)]
    checked_flags: Vec<String>,
}

/// `allowed-tools` as a list or as one string ("Bash Read", "Bash, Read").
#[derive(Deserialize)]
#[serde(untagged)]
enum Tools {
    List(Vec<String>),
    Line(String),
}

/// The digest of a skill's text.
pub fn digest(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Parses the text of a `SKILL.md`; `place` names it in errors (a path or "built-in
/// NAME").
pub fn parse(text: &str, place: &str, origin: Origin) -> Result<Skill, SkillError> {
    let at = || place.to_string();
    if text.len() > MOST_BYTES {
        return Err(SkillError::TooLarge {
            place: at(),
            bytes: text.len(),
            most: MOST_BYTES,
        });
    }
    let text_nobom = text.trim_start_matches('\u{feff}');
    let (front, body) =
        split_front(text_nobom).ok_or_else(|| SkillError::NoFrontMatter { place: at() })?;
    let front: Front = if front.trim().is_empty() {
        Front {
            name: None,
            description: None,
            allowed_tools: None,
            metadata: None,
        }
    } else {
        serde_saphyr::from_str(front).map_err(|e| SkillError::Yaml {
            place: at(),
            message: e.to_string().lines().next().unwrap_or("").to_string(),
        })?
    };
    let name = front
        .name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .ok_or_else(|| SkillError::MissingField {
            place: at(),
            field: "name",
        })?;
    check_name(&name).map_err(|why| SkillError::BadName {
        place: at(),
        name: name.clone(),
        why,
    })?;
    let description = front
        .description
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .ok_or_else(|| SkillError::MissingField {
            place: at(),
            field: "description",
        })?;
    if description.chars().count() > MOST_DESCRIPTION {
        return Err(SkillError::LongDescription {
            place: at(),
            most: MOST_DESCRIPTION,
        });
    }
    let allowed_tools = match front.allowed_tools {
        None => Vec::new(),
        Some(Tools::List(list)) => list,
        Some(Tools::Line(line)) => line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect(),
    };
    let metadata = front.metadata.unwrap_or_default();
    Ok(Skill {
        name,
        description,
        allowed_tools,
        requires: metadata.requires,
        checked_flags: metadata.checked_flags,
        body: body.trim().to_string(),
        origin,
        files: Vec::new(),
        digest: digest(text),
    })
}

/// The front matter and the body: the text must start with a `---` line and have a
/// closing `---` line.
fn split_front(text: &str) -> Option<(&str, &str)> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut at = first.len();
    for line in lines {
        if line.trim_end() == "---" {
            return Some((&text[first.len()..at], &text[at + line.len()..]));
        }
        at += line.len();
    }
    None
}

/// Why `name` is not a skill name, if it is not.
pub fn check_name(name: &str) -> Result<(), &'static str> {
    if name.len() > MOST_NAME {
        return Err("it is longer than 64 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err("a name has only lower-case letters, digits and hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Err("a hyphen may not start or end it, nor follow another");
    }
    Ok(())
}

/// Writes a skill's `SKILL.md` text from its parts (for new and learned skills).
pub fn render(name: &str, description: &str, body: &str) -> String {
    // Quoted as JSON strings, which YAML reads as double-quoted scalars.
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"));
    format!(
        "---\nname: {}\ndescription: {}\n---\n\n{}\n",
        quote(name),
        quote(description),
        body.trim()
    )
}

#[cfg(test)]
mod tests;
