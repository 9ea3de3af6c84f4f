//! The loop in process, against a scripted model (`Scripted`): the gate's decisions, plans
//! and the finish check, each read back from the audit log, the events and the requests
//! the model was sent. No HTTP and no binary: the end-to-end tests cover those.

mod claims;
mod gate;
mod grammar;
mod model;
mod plan;
mod prompts;
mod scripted;
mod small;
mod warm;
mod window;
mod window_program;
