//! The doctor's screen-element lines: whether the accessibility bus answers, which running
//! applications share their tree and which windows share none (read by OCR), with how to
//! turn accessibility on when none does, and whether OCR (tesseract) is there for windows
//! without a tree.

use zeta_elements::error::{BUS_HINT, ENABLE_HINT};
use zeta_elements::{Desktop, ElementsError};

use super::{check, Check, Level};

pub(super) fn accessibility() -> Check {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return check("a11y", Level::Warn, format!("cannot check: {e}"), None),
    };
    let listed = runtime.block_on(zeta_elements::atspi::read::windows(&Desktop::default()));
    match listed {
        Ok(w) if w.apps == 0 => check(
            "a11y",
            Level::Warn,
            "the accessibility bus answers, but no application shares its tree: windows are read by OCR",
            Some(ENABLE_HINT),
        ),
        Ok(w) => {
            let mut detail = format!(
                "accessibility bus reachable: {} application{} sharing {} tree ({} window{})",
                w.apps,
                if w.apps == 1 { "" } else { "s" },
                if w.apps == 1 { "its" } else { "their" },
                w.windows.len(),
                if w.windows.len() == 1 { "" } else { "s" }
            );
            detail.push_str(&per_application(&w));
            if !w.silent.is_empty() {
                detail.push_str(&format!("; {} did not answer", w.silent.len()));
            }
            check("a11y", Level::Ok, detail, None)
        }
        Err(ElementsError::NoBus { reason, .. }) => check(
            "a11y",
            Level::Warn,
            format!("the accessibility bus cannot be reached: {reason}"),
            Some(BUS_HINT),
        ),
        Err(e) => check("a11y", Level::Warn, e.to_string(), Some(ENABLE_HINT)),
    }
}

/// "; with a tree: galculator, gedit; no tree (read by OCR): \"Old app\"": the
/// applications that share their tree, and the windows on the X server that none of them
/// holds.
fn per_application(w: &zeta_elements::atspi::read::Windows) -> String {
    let mut apps: Vec<&str> = w
        .windows
        .iter()
        .map(|x| x.app.as_str())
        .filter(|a| !a.is_empty())
        .collect();
    apps.sort_unstable();
    apps.dedup();
    let mut out = String::new();
    if !apps.is_empty() {
        out.push_str(&format!("; with a tree: {}", apps.join(", ")));
    }
    let blind: Vec<String> = zeta_tools::windows::titles()
        .into_iter()
        .filter(|t| !w.windows.iter().any(|x| &x.title == t))
        .map(|t| format!("\"{t}\""))
        .collect();
    if !blind.is_empty() {
        out.push_str(&format!("; no tree (read by OCR): {}", blind.join(", ")));
    }
    out
}

pub(super) fn ocr() -> Check {
    match std::process::Command::new("tesseract")
        .arg("--version")
        .output()
    {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let version = text
                .lines()
                .next()
                .unwrap_or("tesseract")
                .trim()
                .to_string();
            check(
                "ocr",
                Level::Ok,
                format!("{version}: windows without a tree are read by OCR"),
                None,
            )
        }
        _ => check(
            "ocr",
            Level::Warn,
            "tesseract is not installed: windows that share no accessibility tree cannot be read",
            Some("sudo apt install tesseract-ocr"),
        ),
    }
}
