//! Counting the tokens of unbroken text (an unwrapped DNA sequence), side by side: the
//! tokenizer on the whole text as Zeta did before, and `context::count_text` (bounded
//! pieces) now. The whole-text count grows much faster than the text and overflowed the
//! stack at 1 MB, so it is measured only up to 128 K characters.
//!
//! `cargo bench -p zeta-core --bench token_count`

// Test code: a failed unwrap or expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

fn main() {
    let Ok(bpe) = tiktoken_rs::cl100k_base() else {
        println!("no tokenizer: nothing to measure");
        return;
    };
    println!(
        "{:>10}  {:>16}  {:>16}  {:>8}  {:>8}",
        "chars", "whole text (ms)", "pieces (ms)", "whole n", "pieces n"
    );
    for size in [16 * 1024, 32 * 1024, 64 * 1024, 128 * 1024, 1024 * 1024] {
        let dna: String = "ACGT".repeat(size / 4);
        let (whole_ms, whole_n) = if size <= 128 * 1024 {
            let start = Instant::now();
            let n = bpe.encode_ordinary(&dna).len();
            (
                format!("{:.1}", start.elapsed().as_secs_f64() * 1000.0),
                n.to_string(),
            )
        } else {
            ("(not run)".to_string(), "-".to_string())
        };
        let start = Instant::now();
        let n = zeta_core::context::count_text(&dna);
        let pieces_ms = start.elapsed().as_secs_f64() * 1000.0;
        println!("{size:>10}  {whole_ms:>16}  {pieces_ms:>16.1}  {whole_n:>8}  {n:>8}");
    }
    // Ordinary prose costs the same either way.
    let prose = "The quick brown fox jumps over the lazy dog, again and again. ".repeat(16_000);
    let start = Instant::now();
    let whole = bpe.encode_ordinary(&prose).len();
    let whole_ms = start.elapsed().as_secs_f64() * 1000.0;
    let start = Instant::now();
    let pieces = zeta_core::context::count_text(&prose);
    let pieces_ms = start.elapsed().as_secs_f64() * 1000.0;
    println!("prose {} chars: whole {whole_ms:.1} ms ({whole} tokens), pieces {pieces_ms:.1} ms ({pieces} tokens)", prose.len());
}
