//! The loader against bad files, environment overrides and saving.

use super::*;

#[test]
fn bad_fields_are_named_and_valid_fields_kept() {
    let loaded = from_json_text(
        r#"{"maxIterations": "many", "commandTimeoutMs": 5000,
            "provider": {"kind": "openai", "baseUrl": 7, "model": "gpt"},
            "colour": "blue", "maxOutputLength": 0}"#,
    );
    let s = &loaded.settings;
    assert_eq!(s.max_iterations, 50);
    assert_eq!(s.command_timeout_ms, 5000);
    assert_eq!(s.max_output_length, 4000);
    assert_eq!(s.provider.kind, ProviderKind::Openai);
    assert_eq!(s.provider.model, "gpt");
    assert_eq!(s.provider.base_url, "");
    let fields: Vec<&str> = loaded.problems.iter().map(|p| p.field.as_str()).collect();
    assert!(fields.contains(&"maxIterations"), "{fields:?}");
    assert!(fields.contains(&"provider.baseUrl"), "{fields:?}");
    assert!(fields.contains(&"colour"), "{fields:?}");
    assert!(fields.contains(&"maxOutputLength"), "{fields:?}");
    assert_eq!(loaded.problems.len(), 4, "{:?}", loaded.problems);
}

#[test]
fn malformed_json_gives_defaults_and_a_located_problem() {
    let loaded = from_json_text("{\n  \"maxIterations\": 5,\n  oops\n}");
    assert_eq!(loaded.settings, Settings::default());
    assert_eq!(loaded.problems.len(), 1);
    assert!(
        loaded.problems[0].message.contains("line 3"),
        "{:?}",
        loaded.problems
    );
}

#[test]
fn unknown_enum_value_is_rejected_by_name() {
    let loaded = from_json_text(r#"{"soul": "pirate", "hotkey": {"mode": "toggle"}}"#);
    assert_eq!(loaded.settings.soul, Soul::AutomationAgent);
    assert_eq!(loaded.settings.hotkey.mode, HotkeyMode::Toggle);
    assert_eq!(loaded.problems.len(), 1);
    assert_eq!(loaded.problems[0].field, "soul");
    assert!(loaded.problems[0].message.contains("pirate"));
}

#[test]
fn missing_file_is_created_and_existing_file_never_rewritten() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("settings.json");
    let first = load_or_create(&path).expect("load");
    assert!(first.created);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    assert_eq!(written["maxIterations"], 50);
    assert_eq!(written["commandTimeoutMs"], 30000);
    assert_eq!(written["maxOutputLength"], 4000);

    let broken = "{ \"maxIterations\": 7, broken";
    std::fs::write(&path, broken).expect("write");
    let second = load_or_create(&path).expect("load");
    assert!(!second.created);
    assert_eq!(second.problems.len(), 1);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), broken);
}

#[test]
fn environment_overrides_the_provider_and_bad_values_are_reported() {
    let mut loaded = from_json_text(r#"{"provider": {"kind": "ollama", "model": "m"}}"#);
    let env = |name: &str| match name {
        "ZETA_LLM_PROVIDER" => Some("openai".to_string()),
        "ZETA_LLM_BASE_URL" => Some("http://127.0.0.1:9/v1".to_string()),
        "ZETA_LLM_PROTOCOL" => Some("smoke-signals".to_string()),
        _ => None,
    };
    apply_env_overrides(&mut loaded.settings, env, &mut loaded.problems);
    let p = &loaded.settings.provider;
    assert_eq!(p.kind, ProviderKind::Openai);
    assert_eq!(p.base_url, "http://127.0.0.1:9/v1");
    assert_eq!(p.model, "m");
    assert_eq!(p.protocol, Protocol::Auto);
    assert_eq!(loaded.problems.len(), 1);
    assert_eq!(loaded.problems[0].field, "ZETA_LLM_PROTOCOL");
}

#[test]
fn per_tool_permissions_are_a_map() {
    let loaded = from_json_text(
        r#"{"permissions": {"mode": "auto", "tools": {"shell": "ask", "write_file": "deny"}}}"#,
    );
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(loaded.settings.permissions.tools.len(), 2);
    let loaded = from_json_text(r#"{"permissions": {"tools": {"shell": "sometimes"}}}"#);
    assert_eq!(loaded.problems[0].field, "permissions.tools");
    assert!(loaded.settings.permissions.tools.is_empty());
}

#[test]
fn rate_limits_and_soul_permissions_load() {
    let loaded = from_json_text(
        r#"{"permissions": {"rateLimits": {"shell": {"perTask": 3}},
            "defaultRateLimit": {"perTask": 5},
            "souls": {"safe_assistant": {"shell": "deny"}}}}"#,
    );
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let p = &loaded.settings.permissions;
    assert_eq!(p.rate_limits["shell"].per_task, Some(3));
    assert_eq!(p.default_rate_limit.per_task, 5);
    assert_eq!(p.default_rate_limit.per_session, 1000);
    assert_eq!(
        p.souls[&Soul::SafeAssistant]["shell"],
        crate::policy::ToolPermission::Deny
    );
    let loaded = from_json_text(
        r#"{"permissions": {"defaultRateLimit": {"perTask": 0}, "souls": {"pirate": {}}}}"#,
    );
    let fields: Vec<_> = loaded.problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        ["permissions.souls", "permissions.defaultRateLimit"]
    );
}

#[test]
fn a_save_round_trips_and_validation_names_every_bad_field() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("settings.json");
    let mut s = Settings::default();
    s.provider.base_url = "http://127.0.0.1:11434".into();
    s.max_iterations = 12;
    save(&s, &path).expect("save");
    let back = load_or_create(&path).expect("load");
    assert_eq!(back.settings.max_iterations, 12);
    assert_eq!(back.settings.provider.base_url, "http://127.0.0.1:11434");
    let bad = validate_json_text(r#"{"provider": {"baseUrl": "ftp://x"}, "maxIterations": 0}"#)
        .expect_err("invalid");
    let fields: Vec<_> = bad.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["maxIterations", "provider.baseUrl"]);
}

#[test]
fn soul_caps_iterations() {
    let loaded = from_json_text(r#"{"soul": "safe_assistant", "maxIterations": 40}"#);
    assert_eq!(loaded.settings.effective_max_iterations(), 10);
    let loaded = from_json_text(r#"{"maxIterations": 7}"#);
    assert_eq!(loaded.settings.effective_max_iterations(), 7);
}

/// A value that cannot be written as JSON (here, a map with non-string keys) is an error
/// and leaves the file as it was; it used to replace the user's file with `{}`.
#[test]
fn a_save_that_cannot_be_written_leaves_the_file_alone() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("settings.json");
    std::fs::write(&path, "{\"maxIterations\": 7}\n").expect("write");
    let unwritable: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
    let error = write_json(&path, &unwritable).expect_err("refused");
    assert!(error.to_string().contains("unchanged"), "{error}");
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(text, "{\"maxIterations\": 7}\n");
}

#[test]
fn mcp_servers_are_kept_as_written_and_a_bad_entry_is_named() {
    let text = r#"{"maxIterations": 7, "mcpServers": {
        "files": {"command": "python3", "args": ["s.py"], "env": {"TOKEN": "${secret:files}"}},
        "broken": {"args": ["no command"]}
    }}"#;
    let loaded = from_json_text(text);
    assert_eq!(loaded.settings.max_iterations, 7);
    assert_eq!(loaded.settings.mcp_servers.len(), 2, "both kept as written");
    assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
    assert_eq!(loaded.problems[0].field, "mcpServers.broken");
    // A save writes the entries back exactly, the broken one included (it is the user's).
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("settings.json");
    save(&loaded.settings, &path).expect("save");
    let again = read_file(&path).expect("read").expect("exists");
    assert_eq!(again.settings.mcp_servers, loaded.settings.mcp_servers);
    // Not an object at all: the whole section is refused by name.
    let loaded = from_json_text(r#"{"mcpServers": ["files"]}"#);
    assert!(loaded.settings.mcp_servers.is_empty());
    assert_eq!(loaded.problems[0].field, "mcpServers");
}

/// A bad value is said as a person reads it: what the field takes, from the kind of its
/// default ("a whole number, 0 or more", "true or false", "text"), and a range in words
/// with time in seconds, minutes or hours; never serde's "expected u64" nor "100..=".
#[test]
fn problems_say_what_a_field_takes_in_words() {
    let loaded = from_json_text(
        r#"{"maxIterations": -3, "commandTimeoutMs": 1.5, "provider": {"model": 7, "stream": "yes"},
            "permissions": {"approvalTimeoutSecs": 0}, "maxOutputLength": 20000000,
            "soul": "pirate"}"#,
    );
    let said = |field: &str| {
        loaded
            .problems
            .iter()
            .find(|p| p.field == field)
            .map(|p| p.message.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        said("maxIterations"),
        "-3 is not a whole number, 0 or more; using the default 50"
    );
    assert_eq!(
        said("commandTimeoutMs"),
        "1.5 is not a whole number, 0 or more; using the default 30000"
    );
    assert!(
        said("provider.model").starts_with("7 is not text"),
        "{}",
        said("provider.model")
    );
    assert!(
        said("provider.stream").starts_with("\"yes\" is not true or false"),
        "{}",
        said("provider.stream")
    );
    assert!(
        said("soul").contains("not one of the choices"),
        "{}",
        said("soul")
    );
    assert_eq!(
        said("maxOutputLength"),
        "must be from 100 to 10,000,000 (it is 20,000,000); using 4,000"
    );
    let approval = said("permissions.approvalTimeoutSecs");
    assert!(approval.starts_with("must be from "), "{approval}");
    let timeout = from_json_text(r#"{"commandTimeoutMs": 50}"#);
    assert_eq!(
        timeout.problems[0].message,
        "must be from 100 ms to 24 h (it is 50 ms); using 30 s"
    );
    for p in &loaded.problems {
        assert!(
            !p.message.contains("expected") && !p.message.contains("..="),
            "{p:?}"
        );
    }
}
