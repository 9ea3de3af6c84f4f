//! Prints what `ui_outline` gives for a window, its size in elements and tokens, and the
//! time it took: `cargo run -p zeta-elements --example outline -- [WINDOW] [--ocr] [--max N]
//! [--expand N] [--act JSON]…` (`--expand`: then what is inside element N of that
//! outline; `--act`: then that `ui_act` call, and what it says, in order).
//! For trying applications by hand (which share a usable tree, and how large it is).

use std::time::Instant;

use serde_json::json;
use zeta_core::tool::ToolContext;
use zeta_elements::outline::{numbers_in, tokens};
use zeta_elements::{Desktop, Elements};
use zeta_tools::input::InputState;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut call = json!({});
    let mut expand = None;
    let mut acts = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--ocr" => call["source"] = json!("ocr"),
            "--max" => {
                call["max"] = json!(args
                    .next()
                    .and_then(|n| n.parse::<u32>().ok())
                    .unwrap_or(40))
            }
            "--expand" => expand = args.next().and_then(|n| n.parse::<u32>().ok()),
            "--act" => acts.extend(
                args.next()
                    .and_then(|a| serde_json::from_str::<serde_json::Value>(&a).ok()),
            ),
            window => call["window"] = json!(window),
        }
    }
    let tools = Elements::new(Desktop::default(), InputState::default()).tools();
    let ctx = ToolContext::detached(std::env::temp_dir());
    let started = Instant::now();
    let mut out = tools[0].run(call, &ctx).await;
    if let Some(n) = expand {
        println!("{}", out.content);
        out = tools[0].run(json!({ "expand": n }), &ctx).await;
    }
    let took = started.elapsed();
    for act in acts {
        println!("{}\n-- ui_act {act}", out.content);
        out = tools[1].run(act, &ctx).await;
    }
    println!("{}", out.content);
    let elements = numbers_in(&out.content).len();
    println!(
        "-- {elements} elements, ~{} tokens, {} ms",
        tokens(&out.content),
        took.as_millis()
    );
}
