//! The tool seam: the `Tool` trait that zeta-tools implements, what a tool is handed
//! (`ToolContext`), what it returns (`ToolOutput`), and the `ToolRegistry` the loop uses.

use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use crate::agent::CancelToken;
use crate::model::{ImageData, ToolSpec};

/// Limits and hooks for one tool call, taken from the task's settings.
#[derive(Clone)]
pub struct ToolContext {
    pub cancel: CancelToken,
    /// Folder commands run in.
    pub workdir: PathBuf,
    pub command_timeout_ms: u64,
    pub max_output_length: usize,
    /// Receives output as it arrives (for the UI); may be called many times.
    pub on_output: Arc<dyn Fn(&str) + Send + Sync>,
}

/// What a tool call produced.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// False when the call failed (bad arguments, non-zero exit, timeout, ...).
    pub ok: bool,
    /// What the model reads.
    pub content: String,
    /// One line for the UI.
    pub summary: String,
    pub images: Vec<ImageData>,
}

impl ToolOutput {
    pub fn ok(content: impl Into<String>, summary: impl Into<String>) -> Self {
        Self {
            ok: true,
            content: content.into(),
            summary: summary.into(),
            images: Vec::new(),
        }
    }

    pub fn error(message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            ok: false,
            summary: message.lines().next().unwrap_or_default().to_string(),
            content: message,
            images: Vec::new(),
        }
    }
}

pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = ToolOutput> + Send + 'a>>;

pub trait Tool: Send + Sync {
    fn spec(&self) -> ToolSpec;
    /// True when running it can change something outside Zeta.
    fn has_side_effects(&self) -> bool;
    fn run<'a>(&'a self, arguments: Value, ctx: &'a ToolContext) -> ToolFuture<'a>;
}

/// The tools offered to the model, by name.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.spec().name, tool);
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools.values().map(|t| t.spec()).collect()
    }

    pub fn names(&self) -> Vec<&str> {
        self.tools.keys().map(String::as_str).collect()
    }
}
