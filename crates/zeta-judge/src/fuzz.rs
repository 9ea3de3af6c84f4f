//! Fuzzing the judge: random text from a shell-heavy alphabet, and the corpus's commands
//! cut, spliced and mutated. Whatever the input, it returns a verdict: no panic, no hang
//! (proptest runs a fixed number of cases in the test command).

use std::path::PathBuf;

use proptest::prelude::*;

use crate::corpus::{CATASTROPHIC, HARMLESS};
use crate::{judge, ShellEnv};

fn env() -> ShellEnv {
    ShellEnv {
        home: PathBuf::from("/home/u"),
        cwd: PathBuf::from("/home/u"),
        user: "u".into(),
    }
}

fn corpus() -> Vec<&'static str> {
    CATASTROPHIC
        .iter()
        .flat_map(|(_, cs)| cs.iter().copied())
        .chain(HARMLESS.iter().copied())
        .collect()
}

const SHELLISH: &str = "[a-z~/$(){}'\"`|&;<>*.!#=\\\\ \\n\\t:?@%^+,\\[\\]-]{0,200}";

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_shell_text_gets_a_verdict(text in SHELLISH) {
        let _ = judge(&text, &env());
    }

    #[test]
    fn mutated_corpus_commands_get_a_verdict(
        a in 0usize..400, b in 0usize..400, cut in 0usize..200, insert in SHELLISH
    ) {
        let corpus = corpus();
        let x = corpus[a % corpus.len()];
        let y = corpus[b % corpus.len()];
        let at = x.char_indices().map(|(i, _)| i).nth(cut % (x.chars().count() + 1)).unwrap_or(x.len());
        let spliced = format!("{}{insert}{}", &x[..at], y);
        let _ = judge(&spliced, &env());
        let nested = format!("sh -c {}", crate::quote(&spliced));
        let _ = judge(&nested, &env());
    }

}

proptest! {
    // Fewer cases: eight nested `sh -c` levels make a 10 KB line (about 30 ms in a debug build).
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every opening nests linearly; nested `$(` once doubled the work per level.
    #[test]
    fn deep_nesting_gets_a_verdict(depth in 0usize..120, open in "[({`$]{1,3}") {
        let text = format!("{}rm -rf ~{}", open.repeat(depth), ")".repeat(depth));
        let _ = judge(&text, &env());
        let quoted = (0..depth.min(8)).fold("rm -rf ~".to_string(), |s, _| format!("sh -c {}", crate::quote(&s)));
        let v = judge(&quoted, &env());
        prop_assert!(v != crate::Verdict::Allow, "{quoted}");
    }
}
