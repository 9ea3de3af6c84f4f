//! A shared connection to the Zeta database for the stores beside the queue (audit,
//! metrics, memory, scheduler): opened through `schema::open`, so the schema is
//! migrated, and every error names the database file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use crate::error::CoreError;

#[derive(Clone)]
pub struct SharedDb {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

impl SharedDb {
    pub fn open(db: &Path) -> Result<Self, CoreError> {
        Ok(Self {
            conn: Arc::new(Mutex::new(super::schema::open(db)?)),
            path: db.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on the connection. A poisoned lock only means another thread panicked
    /// mid-statement; SQLite's own transactions keep the data whole.
    pub fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, CoreError> {
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut conn).map_err(|source| CoreError::Database {
            path: self.path.clone(),
            source,
        })
    }
}
