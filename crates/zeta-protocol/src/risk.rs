//! How much harm a call could do, as the approval question and the plan dialog label it.

use serde::{Deserialize, Serialize};

/// How much harm a call could do, as the confirmation dialog labels it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, specta::Type,
)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    /// Reads only, or opens something the user can close.
    Low,
    /// Changes something that can be put back (a new file, a click, typed text).
    Medium,
    /// May destroy or overwrite data, or change the system.
    High,
}
