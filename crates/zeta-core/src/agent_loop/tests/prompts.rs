//! What the model reads, as committed text: the system prompt and the first turn for
//! each protocol and model profile are rendered by a real run and compared with the
//! snapshots in `snapshots/`, so a change to any prompt is a reviewed text diff.
//! `ZETA_UPDATE_SNAPSHOTS=1 cargo test -p zeta-core prompts` writes them anew.

use std::path::PathBuf;

use serde_json::json;

use std::sync::Arc;

use super::scripted::{run_given, settings, text, FixedKnowledge, Given, Person};
use crate::policy::PermissionMode::Auto;
use crate::settings::Protocol;

struct Profile {
    name: &'static str,
    protocol: Protocol,
    small: bool,
    /// The skills are offered (their place in the first turn; zeta-skills renders them).
    skills: bool,
    request: &'static str,
}

const PROFILES: &[Profile] = &[
    Profile {
        name: "native-large",
        protocol: Protocol::Tools,
        small: false,
        skills: true,
        request: "How much free disk space do I have?",
    },
    Profile {
        name: "planner-large",
        protocol: Protocol::Json,
        small: false,
        skills: true,
        request: "How much free disk space do I have?",
    },
    Profile {
        name: "planner-small",
        protocol: Protocol::Json,
        small: true,
        skills: true,
        request: "How many .log files are in ~/zeta-snapshot-logs?",
    },
    Profile {
        name: "planner-small-window",
        protocol: Protocol::Json,
        small: true,
        skills: true,
        request: "Press the OK button in the Settings window",
    },
];

fn snapshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src/agent_loop/tests/snapshots")
        .join(format!("{name}.txt"))
}

#[tokio::test]
async fn the_prompts_each_profile_reads_match_their_snapshots() {
    let update = std::env::var("ZETA_UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1");
    let mut differ = Vec::new();
    for profile in PROFILES {
        let mut s = settings(Auto);
        s.provider.protocol = profile.protocol;
        let answer = json!({"command": "", "reply": "done", "done": true}).to_string();
        let given = Given {
            message: profile.request.into(),
            small: profile.small,
            knowledge: profile
                .skills
                .then(|| Arc::new(FixedKnowledge) as Arc<dyn crate::assist::notes::Knowledge>),
            ..Given::default()
        };
        let ran = run_given(s, vec![Ok(text(&answer))], Person::Approves, given).await;
        let requests = ran.model.requests.lock().unwrap();
        let first = &requests[0];
        let mut rendered = String::new();
        for m in first.messages.iter().take(2) {
            rendered.push_str(&format!("=== {:?} ===\n{}\n", m.role, m.content));
        }
        if let crate::model::ResponseFormat::JsonSchema(schema) = &first.format {
            rendered.push_str(&format!(
                "=== schema ===\n{}\n",
                serde_json::to_string_pretty(schema).unwrap()
            ));
        }
        let path = snapshot_path(profile.name);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &rendered).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != rendered {
            differ.push(format!(
                "{}: the rendered prompt differs from {} (ZETA_UPDATE_SNAPSHOTS=1 writes it; review the diff):\n{rendered}",
                profile.name,
                path.display()
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
