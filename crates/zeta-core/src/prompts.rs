//! Every longer text the model reads is a file in `prompts/` (this crate's folder),
//! compiled in with `include_str!`; `fill` puts a task's values into a template's
//! `{{name}}` places. The snapshot test (`agent_loop/tests/prompts.rs`) renders what
//! each protocol and model profile reads, so a change to a file is a reviewed text diff.

pub const NATIVE: &str = include_str!("../prompts/native.md");
pub const PLANNER: &str = include_str!("../prompts/planner.md");
pub const PLANNER_RULES_SHORT: &str = include_str!("../prompts/planner_rules_short.md");
pub const PLANNER_RULES_JSON: &str = include_str!("../prompts/planner_rules_json.md");
pub const CODE_RULE: &str = include_str!("../prompts/code_rule.md");
pub const VERDICT: &str = include_str!("../prompts/verdict.md");
pub const NOTHING_RUN: &str = include_str!("../prompts/nothing_run.md");
pub const NAMED_SELF: &str = include_str!("../prompts/named_self.md");
pub const ASK_FIRST: &str = include_str!("../prompts/ask_first.md");
pub const CHECK_ASKED_TARGET: &str = include_str!("../prompts/check_asked_target.md");
pub const CHECK_ASKED_SOURCE: &str = include_str!("../prompts/check_asked_source.md");
pub const CHECK_MISSING_PATH: &str = include_str!("../prompts/check_missing_path.md");
pub const CHECK_ASKED_COUNT: &str = include_str!("../prompts/check_asked_count.md");
pub const CHECK_ASKED_CHANGE: &str = include_str!("../prompts/check_asked_change.md");
pub const CHECK_HELD_BACK: &str = include_str!("../prompts/check_held_back.md");
pub const CHECK_UNGROUNDED_VALUE: &str = include_str!("../prompts/check_ungrounded_value.md");
pub const CHECK_UNGROUNDED_IN_WINDOW: &str =
    include_str!("../prompts/check_ungrounded_in_window.md");
/// A value the window never showed, in the answer to a request done there as the window
/// and the files show it.
pub const CHECK_UNGROUNDED_AFTER_WINDOW: &str =
    include_str!("../prompts/check_ungrounded_after_window.md");
pub const CHECK_NO_VALUE: &str = include_str!("../prompts/check_no_value.md");
pub const CHECK_ACT_NOT_SHOWN: &str = include_str!("../prompts/check_act_not_shown.md");
pub const CHECK_WINDOW_UNTOUCHED: &str = include_str!("../prompts/check_window_untouched.md");
pub const CHECK_STEP_LEFT: &str = include_str!("../prompts/check_step_left.md");
pub const CHECK_WINDOW_NOT_SAVED: &str = include_str!("../prompts/check_window_not_saved.md");
pub const CHECK_VALUE_NOT_ENTERED: &str = include_str!("../prompts/check_value_not_entered.md");
pub const CHECK_SECOND_WAY: &str = include_str!("../prompts/check_second_way.md");
pub const CHECK_SECOND_WAY_DIFFERS: &str = include_str!("../prompts/check_second_way_differs.md");
/// The second way's program for a question, asked for in a conversation of its own.
pub const CHECK_SECOND_WAY_APART: &str = include_str!("../prompts/check_second_way_apart.md");
/// Two ways disagree, the program written apart: the model is shown it.
pub const CHECK_SECOND_WAY_DIFFERS_APART: &str =
    include_str!("../prompts/check_second_way_differs_apart.md");
pub const CHECK_WRITTEN_DIFFERS: &str = include_str!("../prompts/check_written_differs.md");
pub const CHECK_UNGROUNDED_PATH: &str = include_str!("../prompts/check_ungrounded_path.md");
pub const NAMES_PIPED: &str = include_str!("../prompts/names_piped.md");
pub const NAMES_PIPED_READ_AS: &str = include_str!("../prompts/names_piped_read_as.md");
pub const NAMES_PIPED_SIZES: &str = include_str!("../prompts/names_piped_sizes.md");
pub const NAMES_PIPED_FOUND_SIZES: &str = include_str!("../prompts/names_piped_found_sizes.md");
pub const NAMED_FILES: &str = include_str!("../prompts/named_files.md");
pub const OTHER_HOMES: &str = include_str!("../prompts/other_homes.md");
pub const NAMES_PIPED_FILES: &str = include_str!("../prompts/names_piped_files.md");
pub const NAMES_PIPED_SEARCHED: &str = include_str!("../prompts/names_piped_searched.md");
pub const NAMES_PIPED_FOUND_NONE: &str = include_str!("../prompts/names_piped_found_none.md");
pub const TEXT_FIELD: &str = include_str!("../prompts/text_field.md");
pub const UNNAMED_MATCHES: &str = include_str!("../prompts/unnamed_matches.md");
pub const TEXT_FIELD_SWAP: &str = include_str!("../prompts/text_field_swap.md");
pub const TEXT_FIELD_UNSPLIT: &str = include_str!("../prompts/text_field_unsplit.md");
pub const COLUMN_NAMES: &str = include_str!("../prompts/column_names.md");

/// `template` with each `{{name}}` of `values` replaced, in one pass (a value's own
/// braces are never read as places).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = &rest[start + 2..start + 2 + len];
        out.push_str(&rest[..start]);
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[start..start + 4 + len]),
        }
        rest = &rest[start + 4 + len..];
    }
    out.push_str(rest);
    out
}

/// The `{{name}}` places of `template`.
#[cfg(test)]
fn places(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        out.push(&rest[start + 2..start + 2 + len]);
        rest = &rest[start + 4 + len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_named_places_once_and_leaves_the_rest() {
        assert_eq!(
            fill("a {{x}} b {{y}}", &[("x", "{{y}}"), ("y", "2")]),
            "a {{y}} b 2"
        );
        assert_eq!(
            fill("{{missing}} {\"json\": 1}", &[]),
            "{{missing}} {\"json\": 1}"
        );
        assert_eq!(fill("open {{", &[("x", "1")]), "open {{");
    }

    /// Every file of `prompts/` is compiled in, and the templates' places are the ones
    /// their code fills.
    #[test]
    fn every_prompt_file_is_used_and_its_places_known() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
        let sources: String = [
            "src/prompts.rs",
            "src/agent_loop/prompt.rs",
            "src/agent_loop/screen.rs",
            "src/policy/injection.rs",
        ]
        .iter()
        .map(|f| {
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(f))
                .unwrap_or_default()
        })
        .collect();
        for entry in std::fs::read_dir(&dir).expect("prompts/") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .to_string();
            assert!(
                sources.contains(&format!("prompts/{name}\")")),
                "prompts/{name} is not compiled in"
            );
        }
        assert_eq!(
            places(PLANNER),
            [
                "soul",
                "rules",
                "plan_rule",
                "untrusted",
                "shape",
                "ending",
                "tools_rule",
                "ask_rule",
                "code_rule",
                "example_1a",
                "example_1b",
                "example_2a",
                "example_2b",
                "example_2c",
                "ask_example"
            ]
        );
        assert_eq!(places(NATIVE), ["soul", "rules", "plan_rule", "untrusted"]);
        assert_eq!(places(VERDICT), ["request", "steps", "answer"]);
        assert_eq!(places(NOTHING_RUN), ["next"]);
        assert_eq!(places(CHECK_ASKED_CHANGE), ["ran"]);
        assert_eq!(places(CHECK_ASKED_TARGET), ["facts", "changed", "how"]);
        assert_eq!(places(CHECK_ASKED_SOURCE), ["facts", "changed"]);
        assert_eq!(places(CHECK_MISSING_PATH), ["paths", "home"]);
        assert_eq!(places(CHECK_HELD_BACK), ["calls"]);
        assert_eq!(places(CHECK_UNGROUNDED_VALUE), ["values"]);
        assert_eq!(places(CHECK_UNGROUNDED_PATH), ["paths"]);
        assert_eq!(
            places(NAMES_PIPED),
            ["listing", "names", "program", "program", "file", "file"]
        );
        assert_eq!(
            places(NAMES_PIPED_READ_AS),
            ["command", "listing", "names", "program"]
        );
        assert_eq!(places(NAMES_PIPED_SIZES), ["command", "listing", "program"]);
        assert_eq!(
            places(NAMES_PIPED_FOUND_SIZES),
            ["command", "listing", "program"]
        );
        assert_eq!(places(NAMES_PIPED_FILES), ["command", "program", "listing"]);
        assert_eq!(places(NAMED_FILES), ["command", "read"]);
        assert_eq!(
            places(NAMES_PIPED_FOUND_NONE),
            ["folders", "pattern", "search"]
        );
        assert_eq!(places(COLUMN_NAMES), ["file", "first", "fields"]);
        assert_eq!(places(OTHER_HOMES), ["home", "written", "written", "home"]);
        assert_eq!(places(CHECK_UNGROUNDED_IN_WINDOW), ["window", "values"]);
        assert_eq!(places(CHECK_UNGROUNDED_AFTER_WINDOW), ["window", "values"]);
        assert_eq!(places(CHECK_NO_VALUE), ["last"]);
        assert_eq!(places(CHECK_ACT_NOT_SHOWN), ["facts"]);
        assert_eq!(places(CHECK_WINDOW_NOT_SAVED), ["files"]);
        assert_eq!(places(CHECK_VALUE_NOT_ENTERED), ["values"]);
        assert_eq!(places(CHECK_SECOND_WAY), ["wrong", "program", "prints"]);
        assert_eq!(
            places(CHECK_SECOND_WAY_DIFFERS),
            ["answer", "printed", "request"]
        );
        assert_eq!(
            places(CHECK_WRITTEN_DIFFERS),
            ["file", "holds", "value", "value", "how"]
        );
    }
}
