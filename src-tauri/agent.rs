//! Which agent carries out tasks. The agent loop is not built yet: every task fails with
//! an honest "no agent configured" (never a fake success).

pub fn configured_agent() -> zeta_core::Unconfigured {
    zeta_core::Unconfigured
}
