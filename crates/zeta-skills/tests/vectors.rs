//! The descriptions' vectors kept between runs: a second chooser (a new process) places
//! the request alone; a file of another model, or one that is not this file, is passed
//! over and written anew; nothing a model could not place is kept.

// Test code: a failed expect is the test failing, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use zeta_skills::choose::{Chooser, Tuning};
use zeta_skills::embed::Embedder;
use zeta_skills::Skills;

/// Places a text by its letters (a vector of letter counts), counting how many texts
/// it placed; `blank` places nothing (a model that cannot read them).
struct Counting {
    placed: Arc<AtomicUsize>,
    identity: &'static str,
    blank: bool,
}

impl Embedder for Counting {
    fn embed(&self, text: &str) -> Vec<f32> {
        self.placed.fetch_add(1, Ordering::SeqCst);
        if self.blank {
            return Vec::new();
        }
        let mut v = vec![0f32; 26];
        for c in text
            .to_ascii_lowercase()
            .bytes()
            .filter(u8::is_ascii_lowercase)
        {
            v[usize::from(c - b'a')] += 1.0;
        }
        v
    }
    fn identity(&self) -> Option<String> {
        Some(self.identity.to_string())
    }
}

fn chooser(
    file: &std::path::Path,
    identity: &'static str,
    blank: bool,
) -> (Chooser, Arc<AtomicUsize>) {
    let placed = Arc::new(AtomicUsize::new(0));
    let embedder = Counting {
        placed: placed.clone(),
        identity,
        blank,
    };
    (
        Chooser::new(Some(Box::new(embedder)), Tuning::default())
            .keeping_vectors(file.to_path_buf()),
        placed,
    )
}

/// Runs `check` with Zeta's own skills and a file to keep their vectors in.
fn with_skills(check: impl FnOnce(&[&zeta_skills::Entry], &std::path::Path)) {
    let dir = tempfile::tempdir().expect("dir");
    let skills = Skills::built_in_only();
    let catalog = skills.current();
    let usable: Vec<_> = catalog.enabled().collect();
    check(&usable, &dir.path().join("skill-vectors.json"));
}

#[test]
fn a_new_run_places_only_the_request() {
    with_skills(|usable, file| {
        let n = usable.len();
        assert!(n >= 40, "Zeta's own skills: {n}");

        let (first, placed) = chooser(file, "model-a", false);
        let ranked_first = first.ranked("how many cores does this computer have", usable);
        assert_eq!(
            placed.load(Ordering::SeqCst),
            n + 1,
            "the request and every description"
        );
        assert!(file.is_file(), "the vectors are kept");
        // The same process again: nothing but the request.
        first.ranked("what time is it", usable);
        assert_eq!(placed.load(Ordering::SeqCst), n + 2);

        // A new process: the request alone, and the same ranking as the first.
        let (second, placed) = chooser(file, "model-a", false);
        let ranked_second = second.ranked("how many cores does this computer have", usable);
        assert_eq!(placed.load(Ordering::SeqCst), 1);
        let names = |r: &[(f32, &zeta_skills::Entry)]| -> Vec<String> {
            r.iter().map(|(_, e)| e.skill.name.clone()).collect()
        };
        assert_eq!(names(&ranked_first), names(&ranked_second));

        // Another model: every description placed again, and kept under it.
        let (other, placed) = chooser(file, "model-b", false);
        other.ranked("how many cores", usable);
        assert_eq!(placed.load(Ordering::SeqCst), n + 1);
        let (again, placed) = chooser(file, "model-b", false);
        again.ranked("how many cores", usable);
        assert_eq!(placed.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn a_file_that_is_not_kept_vectors_is_written_anew() {
    with_skills(|usable, file| {
        let n = usable.len();
        for text in [
            "",
            "not json",
            "[1, 2, 3]",
            "{\"model\": 5}",
            "{\"model\": \"model-a\"}",
        ] {
            std::fs::write(file, text).expect("write");
            let (c, placed) = chooser(file, "model-a", false);
            c.ranked("free disk space", usable);
            assert_eq!(placed.load(Ordering::SeqCst), n + 1, "{text:?}");
            let (c, placed) = chooser(file, "model-a", false);
            c.ranked("free disk space", usable);
            assert_eq!(
                placed.load(Ordering::SeqCst),
                1,
                "written anew after {text:?}"
            );
        }
    });
}

#[test]
fn what_the_model_could_not_place_is_not_kept() {
    with_skills(|usable, file| {
        let n = usable.len();
        let (blank, _) = chooser(file, "model-a", true);
        assert!(blank.choose("free disk space", usable).is_empty());
        let (c, placed) = chooser(file, "model-a", false);
        c.ranked("free disk space", usable);
        assert_eq!(
            placed.load(Ordering::SeqCst),
            n + 1,
            "placed, not read as blanks"
        );
    });
}

#[test]
fn kept_vectors_of_another_length_or_not_finite_are_placed_again() {
    with_skills(|usable, file| {
        let n = usable.len();
        let (first, _) = chooser(file, "model-a", false);
        first.ranked("free disk space", usable);
        let kept: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).expect("kept")).expect("json");
        for bad in [
            serde_json::json!([1.0, 2.0]),
            serde_json::json!(vec![1e39_f64; 26]),
        ] {
            let mut spoiled = kept.clone();
            for v in spoiled["vectors"]
                .as_object_mut()
                .expect("vectors")
                .values_mut()
            {
                *v = bad.clone();
            }
            std::fs::write(file, spoiled.to_string()).expect("write");
            let (c, placed) = chooser(file, "model-a", false);
            let ranked = c.ranked("free disk space", usable);
            assert_eq!(placed.load(Ordering::SeqCst), n + 1, "{bad}");
            assert!(ranked.iter().all(|(s, _)| s.is_finite()), "{bad}");
        }
    });
}
