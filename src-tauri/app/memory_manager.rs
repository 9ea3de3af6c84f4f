//! The app's handle on what the agent remembers and has scheduled, held in Tauri state,
//! for the Memory view: list and forget facts, read and clear the summary, list and remove
//! scheduled jobs.

use serde::Serialize;
use zeta_core::store::memory::{Fact, MemoryStore};
use zeta_core::store::scheduler::{Job, Scheduler};
use zeta_core::{CoreError, ZetaHome};

#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct MemoryView {
    pub facts: Vec<Fact>,
    pub summary: String,
    pub jobs: Vec<Job>,
}

pub struct MemoryManager {
    memory: MemoryStore,
    scheduler: Scheduler,
}

impl MemoryManager {
    pub fn new(home: &ZetaHome) -> Result<Self, CoreError> {
        Ok(Self {
            memory: MemoryStore::open(&home.database_file())?,
            scheduler: Scheduler::open(&home.database_file())?,
        })
    }

    pub fn view(&self) -> Result<MemoryView, CoreError> {
        Ok(MemoryView {
            facts: self.memory.list(500)?,
            summary: self.memory.summary()?,
            jobs: self.scheduler.list()?,
        })
    }

    pub fn forget(&self, id: i64) -> Result<MemoryView, CoreError> {
        self.memory.forget(id)?;
        self.view()
    }

    pub fn clear_summary(&self) -> Result<MemoryView, CoreError> {
        self.memory.clear_summary()?;
        self.view()
    }

    pub fn remove_job(&self, id: i64) -> Result<MemoryView, CoreError> {
        self.scheduler.remove(id)?;
        self.view()
    }
}
