//! SkillsManager (Tauri state): the skills for Settings → Skills — each with its record,
//! the ones that did not load — and the person's changes (on/off, trust, delete, write
//! or edit one), and the draft a task that worked offers ("Save as a skill"), saved only
//! when the person saves it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use zeta_core::store::audit::AuditLog;
use zeta_core::ZetaHome;
use zeta_skills::Skills;

/// One skill as Settings shows it.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SkillView {
    pub name: String,
    pub description: String,
    pub body: String,
    pub built_in: bool,
    pub enabled: bool,
    /// Built in, or written or accepted by the person as it is now.
    pub trusted: bool,
    pub files: Vec<String>,
    pub used: u32,
    pub succeeded: u32,
    pub failed: u32,
    /// It keeps failing.
    pub flagged: bool,
}

/// A skill that did not load.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SkillProblem {
    pub name: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SkillsView {
    pub skills: Vec<SkillView>,
    pub problems: Vec<SkillProblem>,
    /// The person's skills folder.
    pub folder: String,
    /// Why a small model is offered no skills (the model that chooses is missing).
    pub chooser_missing: Option<String>,
}

/// A skill drafted from a task, for the person to edit and save (or not).
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SkillDraft {
    pub name: String,
    pub description: String,
    pub body: String,
}

pub struct SkillsManager {
    home: ZetaHome,
    skills: Arc<Skills>,
}

impl SkillsManager {
    pub fn new(home: &ZetaHome) -> Self {
        Self {
            home: home.clone(),
            skills: zeta_app::agent::skills(home),
        }
    }

    pub fn view(&self) -> SkillsView {
        let catalog = self.skills.current();
        let records = AuditLog::open(&self.home.database_file())
            .and_then(|a| a.skill_records())
            .unwrap_or_else(|e| {
                tracing::warn!("could not read the skills' record: {e}");
                Default::default()
            });
        SkillsView {
            skills: catalog
                .entries
                .iter()
                .map(|e| {
                    let r = records.get(&e.skill.name).copied().unwrap_or_default();
                    SkillView {
                        name: e.skill.name.clone(),
                        description: e.skill.description.clone(),
                        body: e.skill.body.clone(),
                        built_in: e.skill.is_built_in(),
                        enabled: e.enabled,
                        trusted: e.trusted,
                        files: e.skill.files.clone(),
                        used: r.used,
                        succeeded: r.succeeded,
                        failed: r.failed,
                        flagged: r.flagged(),
                    }
                })
                .collect(),
            problems: catalog
                .problems
                .iter()
                .map(|p| SkillProblem {
                    name: p.name.clone(),
                    message: p.message.clone(),
                })
                .collect(),
            folder: self.home.skills_dir().display().to_string(),
            chooser_missing: zeta_skills::embed::locate(Some(&self.home.models_dir()))
                .err()
                .map(|e| e.to_string()),
        }
    }

    pub fn set_enabled(&self, name: &str, on: bool) -> Result<SkillsView, String> {
        self.skills
            .set_enabled(name, on)
            .map_err(|e| e.to_string())?;
        Ok(self.view())
    }

    pub fn trust(&self, name: &str) -> Result<SkillsView, String> {
        let catalog = self.skills.current();
        let entry = catalog
            .get(name)
            .ok_or_else(|| format!("no skill is named `{name}`"))?;
        self.skills
            .trust(name, &entry.skill.digest)
            .map_err(|e| e.to_string())?;
        Ok(self.view())
    }

    pub fn remove(&self, name: &str) -> Result<SkillsView, String> {
        self.skills.remove(name).map_err(|e| e.to_string())?;
        Ok(self.view())
    }

    /// Writes a skill the person wrote, edited or accepted (`replace`: over one of
    /// theirs of that name).
    pub fn save(&self, draft: &SkillDraft, replace: bool) -> Result<SkillsView, String> {
        self.skills
            .write(&draft.name, &draft.description, &draft.body, replace)
            .map_err(|e| e.to_string())?;
        Ok(self.view())
    }

    /// The skill task `task_id` would make, if it worked.
    pub fn draft(&self, task_id: i64) -> Result<SkillDraft, String> {
        let workdir = zeta_app::agent::user_workdir(&self.home);
        zeta_skills::learn::draft_from_task(&self.home.database_file(), task_id, &workdir)
            .map(|d| SkillDraft {
                name: d.name,
                description: d.description,
                body: d.body,
            })
            .map_err(|e| e.to_string())
    }
}
