//! `zeta doctor`'s skills line: how many load (Zeta's own and the person's), the ones that
//! did not, by name and why, and whether the model that chooses them for a small model
//! is there.

use zeta_core::ZetaHome;

use super::{check, Check, Level};

pub fn skills(home: &ZetaHome) -> Check {
    let catalog = zeta_app::agent::skills(home).current();
    let yours = catalog
        .entries
        .iter()
        .filter(|e| !e.skill.is_built_in())
        .count();
    let off = catalog.entries.iter().filter(|e| !e.enabled).count();
    let mut detail = format!(
        "{} skills ({} yours, {} off)",
        catalog.entries.len(),
        yours,
        off
    );
    for p in &catalog.problems {
        detail.push_str(&format!("; did not load: {}: {}", p.name, p.message));
    }
    let chooser = zeta_skills::embed::locate(Some(&home.models_dir()));
    if let Err(e) = &chooser {
        detail.push_str(&format!("; a small model is offered none: {e}"));
    }
    let level = if catalog.problems.is_empty() && chooser.is_ok() {
        Level::Ok
    } else {
        Level::Warn
    };
    let fix = (!catalog.problems.is_empty()).then_some(
        "mend or remove the skill folders named (`zeta skills list` shows them; each needs a SKILL.md with name and description)",
    );
    check("skills", level, detail, fix)
}
