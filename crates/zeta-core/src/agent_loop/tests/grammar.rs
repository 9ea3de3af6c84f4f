//! The plan's schema with each tool's arguments bound to it (`grammar`), checked with a
//! JSON-schema validator as the server's grammar would hold a plan: generated families
//! of plans (every offered tool × argument objects drawn from all the tools' keys, stray
//! keys and wrong types) are taken exactly when the tool's own schema takes their
//! arguments, for the small model's two forms.

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use crate::agent_loop::grammar::{
    bind_now, only_answer, only_calls, only_commands, without_commands,
};
use crate::agent_loop::planner::{plan_schema_for, plan_schema_with, PlanForm};
use crate::model::ToolSpec;

fn spec(name: &str, parameters: Value) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("{name}."),
        parameters,
    }
}

/// The tools a small model meets: the shell, the element tools as they declare
/// themselves, code, and two an MCP server might declare that a grammar does not hold.
fn offered() -> Vec<ToolSpec> {
    vec![
        spec(
            "shell",
            json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}),
        ),
        spec(
            "ui_outline",
            json!({"type": "object", "properties": {
                "window": {"type": "string"}, "expand": {"type": "integer"},
                "source": {"type": "string", "enum": ["auto", "tree", "ocr"]}
            }, "additionalProperties": false}),
        ),
        spec(
            "ui_act",
            json!({"type": "object", "properties": {
                "element": {"type": "integer", "description": "the element's number"},
                "action": {"type": "string"},
                "text": {"type": "string"}, "option": {"type": "string"}
            }, "required": ["element", "action"], "additionalProperties": false}),
        ),
        spec(
            "run_code",
            json!({"type": "object", "properties": {
                "language": {"type": "string", "enum": ["python", "bash"]},
                "code": {"type": "string", "minLength": 1}
            }, "required": ["language", "code"]}),
        ),
        spec(
            "mcp_ref",
            json!({"type": "object", "properties": {"q": {"$ref": "#/$defs/q"}},
                   "$defs": {"q": {"type": "string"}}}),
        ),
        spec(
            "mcp_types",
            json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}),
        ),
    ]
}

fn valid(schema: &Value, value: &Value) -> bool {
    jsonschema::validator_for(schema)
        .map(|v| v.is_valid(value))
        .unwrap_or(false)
}

/// A plan calling `tool` with `args`, in the form's keys.
fn call(form: PlanForm, tool: &str, args: &Value) -> Value {
    match form {
        PlanForm::Short => json!({"args": args, "tool": tool}),
        _ => json!({"command": "", "reply": "", "done": false, "tool": tool, "args": args}),
    }
}

/// Whether the plan's schema takes a call of `tool` with `args`: what the tool's own
/// schema says, or anything where its schema stays open.
fn expected(tool: &ToolSpec, args: &Value) -> bool {
    let open = matches!(tool.name.as_str(), "mcp_ref" | "mcp_types");
    open && args.is_object() || valid(&tool.parameters, args)
}

#[test]
fn a_tool_named_without_the_arguments_it_requires_is_no_plan() {
    let tools = offered();
    for form in [PlanForm::Plain, PlanForm::Short] {
        let bound = plan_schema_for(&tools, form);
        let open = plan_schema_with(
            &tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            form,
        );
        // Seen: `ui_act {}` three times in a row, which the open schema takes.
        let empty = call(form, "ui_act", &json!({}));
        assert!(valid(&open, &empty), "{form:?}: the open schema took it");
        assert!(!valid(&bound, &empty), "{form:?}: {bound}");
        let press = call(form, "ui_act", &json!({"element": 7, "action": "press"}));
        assert!(valid(&bound, &press), "{form:?}");
        // Arguments of another tool under this one's name.
        let outline_args = call(form, "ui_act", &json!({"window": "City"}));
        assert!(!valid(&bound, &outline_args), "{form:?}");
        // A tool that is not offered.
        let other = call(form, "delete_everything", &json!({}));
        assert!(!valid(&bound, &other), "{form:?}");
    }
}

#[test]
fn plans_without_a_tool_are_as_before() {
    let tools = offered();
    let plain = plan_schema_for(&tools, PlanForm::Plain);
    for plan in [
        json!({"command": "ls ~", "reply": "", "done": false}),
        json!({"command": "", "reply": "You have 3 files.", "done": true}),
    ] {
        assert!(valid(&plain, &plan), "{plan}");
    }
    // A command beside a tool is two steps in one: a call leaves "command" empty.
    let both = json!({"command": "ls", "reply": "", "done": false, "tool": "ui_act",
                      "args": {"element": 1, "action": "press"}});
    assert!(!valid(&plain, &both));
    // A call answers nothing: its reply is empty and it is not done (seen: a claim of
    // what the press would do written there until the tokens ran out).
    let press = |reply: &str, done: bool| {
        json!({"args": {"element": 2, "action": "press"}, "command": "", "done": done,
               "reply": reply, "tool": "ui_act"})
    };
    assert!(valid(&plain, &press("", false)));
    assert!(!valid(&plain, &press("The user pressed OK.", false)));
    assert!(!valid(&plain, &press("", true)));
    // No tool, yet arguments: nothing to bind them to.
    let stray = json!({"command": "", "reply": "", "done": false, "args": {"element": 1}});
    assert!(!valid(&plain, &stray));
    let short = plan_schema_for(&tools, PlanForm::Short);
    for plan in [
        json!({"command": "df -h"}),
        json!({"command": "", "reply": "42"}),
    ] {
        assert!(valid(&short, &plan), "{plan}");
    }
    // A larger model's plan keeps its one object, with open arguments.
    let reasoned = plan_schema_for(&tools, PlanForm::Reasoned);
    assert_eq!(reasoned["type"], json!("object"));
    assert_eq!(
        reasoned["properties"]["args"],
        json!({"type": "object", "description": "arguments for tool"})
    );
}

#[test]
fn without_commands_a_plan_calls_a_tool_or_answers() {
    for form in [PlanForm::Plain, PlanForm::Short] {
        let mut schema = plan_schema_for(&offered(), form);
        without_commands(&mut schema);
        let command = match form {
            PlanForm::Short => json!({"command": "zenity --entry"}),
            _ => json!({"command": "zenity --entry", "reply": "", "done": false}),
        };
        assert!(!valid(&schema, &command), "{form:?}: {schema}");
        let press = call(form, "ui_act", &json!({"element": 7, "action": "press"}));
        assert!(valid(&schema, &press), "{form:?}");
        let answer = match form {
            PlanForm::Short => json!({"command": "", "reply": "Not done."}),
            _ => json!({"command": "", "reply": "Not done.", "done": true}),
        };
        assert!(valid(&schema, &answer), "{form:?}");
        // Neither a call nor an answer: nothing the grammar lets through.
        if form == PlanForm::Plain {
            let stall = json!({"command": "", "reply": "", "done": false});
            assert!(!valid(&schema, &stall), "{form:?}: {schema}");
        }
    }
}

/// A tool's arguments bound now (`Tool::arguments_now`) replace its spec's in both small
/// forms, leave the other tools and the answer as they were, and leave a larger
/// model's open plan alone.
#[test]
fn arguments_bound_now_replace_the_spec_s_for_that_tool_only() {
    let now = json!({"type": "object", "properties": {
        "action": {"const": "press"}, "element": {"enum": [4, 9]}
    }, "required": ["action", "element"], "additionalProperties": false});
    for form in [PlanForm::Plain, PlanForm::Short] {
        let mut schema = plan_schema_for(&offered(), form);
        bind_now(&mut schema, "ui_act", &now);
        let press = |n: u32| call(form, "ui_act", &json!({"action": "press", "element": n}));
        assert!(valid(&schema, &press(9)), "{form:?}");
        assert!(!valid(&schema, &press(7)), "{form:?}: 7 was not shown");
        let typed = call(
            form,
            "ui_act",
            &json!({"action": "set_text", "element": 4, "text": "ada"}),
        );
        assert!(!valid(&schema, &typed), "{form:?}: 4 takes no text now");
        let read = call(form, "ui_outline", &json!({"window": "City"}));
        assert!(valid(&schema, &read), "{form:?}: the other tools stand");
        let answer = match form {
            PlanForm::Short => json!({"command": "", "reply": "Done."}),
            _ => json!({"command": "", "reply": "Done.", "done": true}),
        };
        assert!(valid(&schema, &answer), "{form:?}");
    }
    let mut reasoned = plan_schema_for(&offered(), PlanForm::Reasoned);
    let before = reasoned.clone();
    bind_now(&mut reasoned, "ui_act", &now);
    assert_eq!(
        reasoned, before,
        "a larger model's plan keeps its open arguments"
    );
}

/// `only_calls` leaves the tool alternatives alone: no command and no answer, in both
/// small forms; a schema with no tool to call is left as it was.
#[test]
fn only_calls_takes_a_tool_call_and_nothing_else() {
    for form in [PlanForm::Plain, PlanForm::Short] {
        let mut schema = plan_schema_for(&offered(), form);
        only_calls(&mut schema);
        let (command, answer) = match form {
            PlanForm::Short => (
                json!({"command": "ls"}),
                json!({"command": "", "reply": "x"}),
            ),
            _ => (
                json!({"command": "ls", "reply": "", "done": false}),
                json!({"command": "", "reply": "x", "done": true}),
            ),
        };
        assert!(!valid(&schema, &command), "{form:?}");
        assert!(!valid(&schema, &answer), "{form:?}");
        let press = call(form, "ui_act", &json!({"element": 7, "action": "press"}));
        assert!(valid(&schema, &press), "{form:?}");
        let read = call(form, "ui_outline", &json!({}));
        assert!(valid(&schema, &read), "{form:?}");
    }
    let shell_only = vec![offered().remove(0)];
    let mut schema = plan_schema_for(&shell_only, PlanForm::Short);
    let before = schema.clone();
    only_calls(&mut schema);
    assert_eq!(schema, before, "nothing to call: left as it was");
}

/// `only_answer` leaves the answer alone: no command and no call, in both small forms; a
/// larger model's plan is left as it was.
#[test]
fn only_answer_takes_the_answer_and_nothing_else() {
    for form in [PlanForm::Plain, PlanForm::Short] {
        let mut schema = plan_schema_for(&offered(), form);
        only_answer(&mut schema);
        let (command, answer) = match form {
            PlanForm::Short => (
                json!({"command": "ls"}),
                json!({"command": "", "reply": "Saved."}),
            ),
            _ => (
                json!({"command": "ls", "reply": "", "done": false}),
                json!({"command": "", "reply": "Saved.", "done": true}),
            ),
        };
        assert!(!valid(&schema, &command), "{form:?}");
        assert!(valid(&schema, &answer), "{form:?}");
        let press = call(form, "ui_act", &json!({"element": 7, "action": "press"}));
        assert!(!valid(&schema, &press), "{form:?}");
    }
    let mut reasoned = plan_schema_for(&offered(), PlanForm::Reasoned);
    let before = reasoned.clone();
    only_answer(&mut reasoned);
    assert_eq!(reasoned, before, "a larger model's plan is left as it was");
}

/// `only_commands` leaves a shell command alone: no answer, no other tool, no empty
/// command, in both small forms and a larger model's plan.
#[test]
fn only_commands_takes_a_command_and_nothing_else() {
    for form in [PlanForm::Plain, PlanForm::Short, PlanForm::Reasoned] {
        let mut schema = plan_schema_for(&offered(), form);
        only_commands(&mut schema);
        let (command, empty, answer) = match form {
            PlanForm::Short => (
                json!({"command": "python3 - <<'EOF'\nprint(1)\nEOF"}),
                json!({"command": ""}),
                json!({"command": "", "reply": "Saved."}),
            ),
            _ => (
                json!({"command": "python3 - <<'EOF'\nprint(1)\nEOF", "reply": "", "done": false}),
                json!({"command": "", "reply": "", "done": false}),
                json!({"command": "", "reply": "Saved.", "done": true}),
            ),
        };
        let plan = |v: Value| match form {
            PlanForm::Reasoned => {
                let mut v = v;
                v["thought"] = json!("check it");
                v
            }
            _ => v,
        };
        if form != PlanForm::Reasoned {
            assert!(valid(&schema, &plan(command)), "{form:?}: {schema}");
        }
        assert!(!valid(&schema, &plan(empty)), "{form:?}");
        assert!(!valid(&schema, &plan(answer)), "{form:?}");
        let press = call(form, "ui_act", &json!({"element": 7, "action": "press"}));
        assert!(!valid(&schema, &press), "{form:?}");
        let ask = call(form, "ask_user", &json!({"question": "Which file?"}));
        assert!(!valid(&schema, &ask), "{form:?}");
    }
}

/// A small model's answer is bounded in both forms, so a reply that repeats itself is
/// closed by the grammar: an answer of the bound is taken, one character more is not;
/// a larger model's plan is not bounded.
#[test]
fn a_small_models_answer_is_bounded() {
    use crate::agent_loop::planner::PLAN_REPLY_MAX_CHARS;
    let at = "a".repeat(PLAN_REPLY_MAX_CHARS as usize);
    let over = format!("{at}a");
    for form in [PlanForm::Plain, PlanForm::Short] {
        for tools in [offered(), offered()[..1].to_vec()] {
            let schema = plan_schema_for(&tools, form);
            let answer = |reply: &str| match form {
                PlanForm::Short => json!({"command": "", "reply": reply}),
                _ => json!({"command": "", "reply": reply, "done": true}),
            };
            assert!(valid(&schema, &answer(&at)), "{form:?}");
            assert!(!valid(&schema, &answer(&over)), "{form:?}");
        }
    }
    let reasoned = plan_schema_for(&offered(), PlanForm::Reasoned);
    assert!(reasoned["properties"]["reply"].get("maxLength").is_none());
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i32>().prop_map(|n| json!(n)),
        "[a-zA-Z ]{0,6}".prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        prop_oneof![Just("auto"), Just("ocr"), Just("python"), Just("press")]
            .prop_map(|s| json!(s)),
    ]
}

/// Argument objects drawn from every offered tool's keys and a few strays.
fn arguments() -> impl Strategy<Value = Value> {
    let keys = prop_oneof![
        Just("element"),
        Just("action"),
        Just("text"),
        Just("option"),
        Just("window"),
        Just("expand"),
        Just("source"),
        Just("language"),
        Just("code"),
        Just("command"),
        Just("q"),
        Just("n"),
        Just("stray"),
    ];
    proptest::collection::vec((keys, scalar()), 0..5).prop_map(|pairs| {
        let mut map = Map::new();
        for (k, v) in pairs {
            map.insert(k.to_string(), v);
        }
        Value::Object(map)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every offered tool, any arguments: the plan stands exactly when the tool would
    /// take them (open where the grammar cannot hold the tool's schema).
    #[test]
    fn a_plan_stands_exactly_when_its_tool_takes_the_arguments(
        which in 1usize..6, args in arguments(), short in any::<bool>()
    ) {
        let tools = offered();
        let tool = &tools[which];
        let form = if short { PlanForm::Short } else { PlanForm::Plain };
        let schema = plan_schema_for(&tools, form);
        let plan = call(form, &tool.name, &args);
        prop_assert_eq!(valid(&schema, &plan), expected(tool, &args), "{} {}", tool.name, args);
    }
}
