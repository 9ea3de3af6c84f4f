//! How Zeta's windows render their web pages (the chat and the confirmation dialog).
//!
//! The pages are a chat and a form: text, buttons and a scroll. WebKitGTK's accelerated
//! compositing draws them through OpenGL, which costs the web process a GL context and
//! its buffers: where the driver renders in software (Mesa's llvmpipe: no GPU, a VM,
//! Xvfb) that is ~55 MiB of the web process for nothing a chat needs. So the app draws its
//! pages on the CPU (WebKit's non-composited mode).
//!
//! WebKitGTK reads this from the environment only (`WEBKIT_DISABLE_COMPOSITING_MODE`;
//! the settings' hardware-acceleration policy "never" leaves the page blank with the
//! DMA-BUF renderer of WebKitGTK 2.50), so it is set at start, before any thread. A value
//! the user set is kept. The variable is named in `ZETA_ADDED_ENV`, so the programs the
//! agent starts for the user (commands, apps, URLs) do not inherit it
//! (`zeta_tools::child_env`).

/// WebKitGTK's switch for drawing without accelerated compositing.
const NO_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Sets the app's rendering choice in its environment. Call before any thread starts.
pub fn draw_pages_without_gl() {
    if std::env::var_os(NO_COMPOSITING).is_some() {
        return;
    }
    std::env::set_var(NO_COMPOSITING, "1");
    std::env::set_var(zeta_tools::child_env::ADDED_BY_ZETA, NO_COMPOSITING);
}
