//! The app package's library: the composition root ([`agent`]) that the `zeta` binary
//! (app and CLI) and the integration tests build the agent with.

pub mod agent;
