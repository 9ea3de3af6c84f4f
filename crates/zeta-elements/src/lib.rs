//! zeta-elements: what is on screen as numbered elements a text-only model can read and act
//! on — the AT-SPI2 accessibility tree where applications share it, OCR words where they
//! do not — and the `ui_outline` / `ui_act` tools over them.
//!
//! - [`node`]: one element, whichever source found it.
//! - [`outline`]: the numbered, pruned, budgeted outline a model reads (pure).
//! - [`numbers`]: element numbers that stay the same while the element exists.
//! - [`atspi`]: the accessibility bus: reading windows and trees, acting on elements.
//! - [`ocr`]: tesseract over a screenshot, as the same kind of elements.
//! - [`readback`]: whether an act shows in the window after it.
//! - [`keyed`]: numbers keyed in on a keypad (a calculator's digits), in order.
//! - [`edit`]: whether a request adds to a text or changes it, as the model answers.
//! - [`steps`]: a step of the request that names nothing in its window, and the
//!   default button that does it.
//! - [`bound`]: the calls `ui_act` takes now, for a constrained model's grammar.
//! - [`tools`]: the two tools.
//! - [`typed`]: the keyboard tool's typing read back from the focused field.
//! - [`error`]: what failed, in words a person can act on.

pub mod asked;
pub mod atspi;
pub mod bound;
pub mod edit;
pub mod error;
pub mod keyed;
pub mod labels;
pub mod marks;
pub mod node;
pub mod numbers;
pub mod ocr;
pub mod outline;
pub mod readback;
pub mod steps;
pub mod tools;
pub mod typed;
pub mod walk;

pub use atspi::Desktop;
pub use error::ElementsError;
pub use tools::Elements;
