//! The display server Zeta runs on and how to reach it: which session this is (X11, or
//! Wayland and its compositor: GNOME, KDE, sway, Hyprland, another wlroots one) in
//! [`session`]; what the screen, input, hotkey and accessibility capabilities use there,
//! what the person must allow once and what cannot work, in [`support`]; and the Wayland
//! back-ends that need no portal: the wlroots screen copy ([`wayland::screencopy`]) and
//! sway's window list ([`sway`]). The X11 paths stay in `zeta-tools` (MIT-SHM, XTest).

pub mod error;
pub mod portal;
pub mod session;
pub mod support;
pub mod sway;
pub mod wayland;

pub use error::DisplayError;
pub use session::{Compositor, Session};
