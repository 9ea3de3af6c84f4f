use super::*;
use serde_json::json;

fn parse(v: Value) -> (Vec<ServerConfig>, Vec<SettingsProblem>) {
    let map: BTreeMap<String, Value> = serde_json::from_value(v).expect("an object");
    parse_servers(&map)
}

#[test]
fn the_formats_users_paste_are_read() {
    let (servers, problems) = parse(json!({
        "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"DEBUG": "1"}},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${secret:remote}"}},
        "typed": {"type": "stdio", "command": "python3", "args": ["s.py"], "cwd": "/srv", "start": "onAppStart", "trustReadOnly": true, "timeoutSecs": 5},
        "http2": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp"},
        "off": {"command": "nothing", "disabled": true},
    }));
    assert_eq!(problems, Vec::new());
    let names: Vec<_> = servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["files", "http2", "remote", "typed"]);
    let typed = &servers[3];
    assert_eq!(typed.start, Start::OnAppStart);
    assert!(typed.trust_read_only);
    assert_eq!(typed.timeout_secs, 5);
    assert!(
        matches!(&typed.transport, Transport::Stdio { cwd: Some(c), .. } if c == &PathBuf::from("/srv"))
    );
    assert_eq!(servers[0].timeout_secs, DEFAULT_TIMEOUT_SECS);
    assert!(
        matches!(&servers[2].transport, Transport::Http { headers, .. } if headers["Authorization"].contains("${secret:remote}"))
    );
}

/// Families of bad entries: each is reported by its field and skipped, and the good
/// entry beside it still works.
#[test]
fn each_bad_entry_is_named_and_skipped_and_the_others_work() {
    let bad = [
        (json!("npx server"), "mcpServers.bad", "expected an object"),
        (json!(null), "mcpServers.bad", "found null"),
        (json!([]), "mcpServers.bad", "found a list"),
        (json!({}), "mcpServers.bad", "needs `command`"),
        (json!({"args": ["x"]}), "mcpServers.bad", "needs `command`"),
        (json!({"command": ""}), "mcpServers.bad.command", "empty"),
        (json!({"command": "  "}), "mcpServers.bad.command", "empty"),
        (
            json!({"command": 5}),
            "mcpServers.bad.command",
            "expected a string",
        ),
        (
            json!({"command": ["npx"]}),
            "mcpServers.bad.command",
            "expected a string",
        ),
        (
            json!({"command": "x", "args": "-y pkg"}),
            "mcpServers.bad.args",
            "list of strings",
        ),
        (
            json!({"command": "x", "args": ["-y", 3]}),
            "mcpServers.bad.args",
            "a number in it",
        ),
        (
            json!({"command": "x", "env": ["A=1"]}),
            "mcpServers.bad.env",
            "object of strings",
        ),
        (
            json!({"command": "x", "env": {"A": 1}}),
            "mcpServers.bad.env",
            "`A` should be a string",
        ),
        (
            json!({"command": "x", "cwd": false}),
            "mcpServers.bad.cwd",
            "expected a string",
        ),
        (
            json!({"command": "x", "url": "http://a"}),
            "mcpServers.bad",
            "both",
        ),
        (
            json!({"command": "x", "headers": {}}),
            "mcpServers.bad.headers",
            "only a `url` server",
        ),
        (
            json!({"command": "x", "type": "http"}),
            "mcpServers.bad.type",
            "does not go with `command`",
        ),
        (
            json!({"url": "ftp://a"}),
            "mcpServers.bad.url",
            "not an http",
        ),
        (
            json!({"url": "localhost:3000"}),
            "mcpServers.bad.url",
            "not an http",
        ),
        (json!({"url": ""}), "mcpServers.bad.url", "not an http"),
        (
            json!({"url": "http://a", "type": "sse"}),
            "mcpServers.bad.type",
            "SSE transport is not supported",
        ),
        (
            json!({"url": "http://a", "type": "stdio"}),
            "mcpServers.bad.type",
            "does not go with `url`",
        ),
        (
            json!({"url": "http://a", "args": []}),
            "mcpServers.bad.args",
            "only a `command` server",
        ),
        (
            json!({"url": "http://a", "headers": "Bearer x"}),
            "mcpServers.bad.headers",
            "object of strings",
        ),
        (
            json!({"url": "http://a", "headers": {"X": null}}),
            "mcpServers.bad.headers",
            "should be a string",
        ),
        (
            json!({"command": "x", "start": "now"}),
            "mcpServers.bad.start",
            "not \"onUse\"",
        ),
        (
            json!({"command": "x", "timeoutSecs": 0}),
            "mcpServers.bad.timeoutSecs",
            "from 1 to 3600",
        ),
        (
            json!({"command": "x", "timeoutSecs": -1}),
            "mcpServers.bad.timeoutSecs",
            "from 1 to 3600",
        ),
        (
            json!({"command": "x", "timeoutSecs": 1.5}),
            "mcpServers.bad.timeoutSecs",
            "from 1 to 3600",
        ),
        (
            json!({"command": "x", "timeoutSecs": "10"}),
            "mcpServers.bad.timeoutSecs",
            "from 1 to 3600",
        ),
        (
            json!({"command": "x", "timeoutSecs": 99999}),
            "mcpServers.bad.timeoutSecs",
            "from 1 to 3600",
        ),
        (
            json!({"command": "x", "trustReadOnly": "yes"}),
            "mcpServers.bad.trustReadOnly",
            "true or false",
        ),
        (
            json!({"command": "x", "disabled": "no"}),
            "mcpServers.bad.disabled",
            "true or false",
        ),
        (
            json!({"command": "x", "comand": "y"}),
            "mcpServers.bad",
            "unknown field `comand`",
        ),
        (
            json!({"command": "x", "autoApprove": ["t"]}),
            "mcpServers.bad",
            "unknown field",
        ),
    ];
    for (entry, field, says) in bad {
        let (servers, problems) = parse(json!({"bad": entry.clone(), "good": {"command": "ok"}}));
        assert_eq!(problems.len(), 1, "{entry}: {problems:?}");
        assert_eq!(problems[0].field, field, "{entry}");
        assert!(
            problems[0].message.contains(says),
            "{entry}: {}",
            problems[0].message
        );
        assert!(problems[0].message.contains("skipped"), "{entry}");
        assert_eq!(servers.len(), 1, "{entry}");
        assert_eq!(servers[0].name, "good");
    }
}

#[test]
fn names_that_would_make_bad_tool_names_are_refused() {
    for name in [
        "",
        "a b",
        "files.v2",
        "über",
        "two__parts",
        "trailing_",
        &"x".repeat(25),
        "a/b",
    ] {
        let (servers, problems) = parse(json!({ name: {"command": "x"} }));
        assert!(servers.is_empty(), "{name:?}");
        assert_eq!(problems.len(), 1, "{name:?}");
        assert!(
            problems[0].message.contains("name"),
            "{name:?}: {}",
            problems[0].message
        );
    }
    for name in ["files", "my-server", "github_2", "A", &"x".repeat(24)] {
        let (servers, problems) = parse(json!({ name: {"command": "x"} }));
        assert_eq!((servers.len(), problems.len()), (1, 0), "{name:?}");
    }
}

#[test]
fn secret_references_are_found_and_filled() {
    assert_eq!(secret_refs("Bearer ${secret:gh}"), ["gh"]);
    assert_eq!(secret_refs("${secret:a}:${secret:b}"), ["a", "b"]);
    assert!(secret_refs("plain ${secret:unclosed").is_empty());
    let lookup = |n: &str| (n == "gh").then(|| "tok-123".to_string());
    assert_eq!(
        fill_secrets("Bearer ${secret:gh}", &lookup).as_deref(),
        Ok("Bearer tok-123")
    );
    assert_eq!(
        fill_secrets("no secret here", &lookup).as_deref(),
        Ok("no secret here")
    );
    let missing = fill_secrets("${secret:other}", &lookup).unwrap_err();
    assert!(missing.contains("`other` is not stored"), "{missing}");
}

#[test]
fn secret_looking_names() {
    for k in [
        "Authorization",
        "X-API-Key",
        "x-api-key",
        "GITHUB_TOKEN",
        "DB_PASSWORD",
        "OPENAI_API_KEY",
        "Cookie",
        "client_secret",
        "AWS_SECRET_ACCESS_KEY",
        "SSH_PRIVATE_KEY_PATH",
    ] {
        assert!(looks_secret(k), "{k}");
    }
    for k in [
        "DEBUG",
        "PATH",
        "Accept",
        "Content-Type",
        "LOG_LEVEL",
        "HOME",
        "keyboard_layout",
    ] {
        assert!(!looks_secret(k), "{k}");
    }
}
