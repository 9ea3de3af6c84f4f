//! How Zeta's windows run their web pages (the chat and the confirmation dialog).
//!
//! The pages are a chat and a form: text, buttons and a scroll, and small scripts.
//! - **Drawn on the CPU.** WebKitGTK's accelerated compositing draws through OpenGL, which
//!   costs the web process a GL context and its buffers: where the driver renders in
//!   software (Mesa's llvmpipe: no GPU, a VM, Xvfb) that is ~55 MiB of the web process for
//!   nothing a chat needs (`WEBKIT_DISABLE_COMPOSITING_MODE`; the settings'
//!   hardware-acceleration policy "never" leaves the page blank with the DMA-BUF renderer
//!   of WebKitGTK 2.50).
//! - **Scripts interpreted, not compiled** (`JSC_useJIT=false`). JavaScriptCore's JIT
//!   tiers cost the web process 7 MiB at rest, and while a reply streams they doubled its
//!   growth (measured on WebKitGTK 2.50: 105 → 132 MiB 20 s into a fast stream with them,
//!   98 → 111 MiB without); the chat's scripts are small and its markdown short, which the
//!   interpreter reads fast enough. A process that renders text quoted from web pages
//!   and files also holds no writable executable memory so.
//!
//! WebKitGTK and JavaScriptCore read these from the environment only, so they are set at
//! start, before any thread. A value the user set is kept. The variables set are named in
//! `ZETA_ADDED_ENV`, so the programs the agent starts for the user (commands, apps, URLs)
//! do not inherit them (`zeta_tools::child_env`).

/// What the app sets for its web views: variable and value.
const PAGE_ENGINE: [(&str, &str); 2] = [
    ("WEBKIT_DISABLE_COMPOSITING_MODE", "1"),
    ("JSC_useJIT", "false"),
];

/// Sets the app's choices for its web pages in its environment. Call before any thread
/// starts.
pub fn set_page_engine() {
    let added: Vec<&str> = PAGE_ENGINE
        .iter()
        .filter(|(name, _)| std::env::var_os(name).is_none())
        .map(|(name, value)| {
            std::env::set_var(name, value);
            *name
        })
        .collect();
    if !added.is_empty() {
        std::env::set_var(zeta_tools::child_env::ADDED_BY_ZETA, added.join(":"));
    }
}
