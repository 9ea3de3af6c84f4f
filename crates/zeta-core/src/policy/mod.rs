//! What the agent may do: commands that never run (`blocked`), and whether a call runs,
//! asks first or is refused (`permission`).

pub mod blocked;
pub mod permission;

pub use blocked::{check_command, Blocked};
pub use permission::{decide, Decision, PermissionMode, ToolPermission};
