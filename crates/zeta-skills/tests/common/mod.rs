//! What the skills' integration tests share: the count kept over a table of requests
//! in two halves (`tune`, `held`: for each half, how many requests fit a skill and which
//! missed it, how many fit none, how many skills were offered and which fit nothing
//! asked), and a shell call that worked as the audit records it.

// Each test binary uses a part of this module.
#![allow(dead_code)]

/// A shell call of task 1 that was allowed and worked, as the audit records it.
pub fn shell(command: &str) -> zeta_core::store::audit::AuditEntry {
    zeta_core::store::audit::AuditEntry {
        id: 0,
        task_id: 1,
        call_id: "c".into(),
        tool: "shell".into(),
        arguments: serde_json::json!({ "command": command }).to_string(),
        decision: "allowed".into(),
        decided_by: "policy".into(),
        ok: true,
        summary: String::new(),
        created_at: 0,
        state: "finished".into(),
    }
}

/// One half's count.
#[derive(Default, Debug)]
pub struct Count {
    pub fits: usize,
    pub misses: Vec<String>,
    pub none: usize,
    pub false_picks: Vec<String>,
    pub offered: usize,
}

/// The counts of both halves.
pub struct Tally {
    pub halves: [(&'static str, Count); 2],
}

impl Default for Tally {
    fn default() -> Self {
        Self {
            halves: [("tune", Count::default()), ("held", Count::default())],
        }
    }
}

impl Tally {
    /// Counts what was `chosen` for `request` of `half`, which `fits` (none: it fits no
    /// skill).
    pub fn record(&mut self, half: &str, request: &str, chosen: &[String], fits: &[&str]) {
        let Some((_, count)) = self.halves.iter_mut().find(|(h, _)| *h == half) else {
            panic!("the table names an unknown half {half}");
        };
        count.offered += chosen.len();
        if fits.is_empty() {
            count.none += 1;
        } else {
            count.fits += 1;
            if !chosen.iter().any(|c| fits.contains(&c.as_str())) {
                count
                    .misses
                    .push(format!("{request:?} got {chosen:?}, fits {fits:?}"));
            }
        }
        for c in chosen.iter().filter(|c| !fits.contains(&c.as_str())) {
            count.false_picks.push(format!("{request:?} got {c}"));
        }
    }

    /// Prints each half's figures, its misses and its false picks; `what`: what a fit is.
    pub fn report(&self, what: &str) {
        for (half, count) in &self.halves {
            println!(
                "{half}: {} requests that fit {what}, {} misses; {} requests that fit none; {} offered, {} false picks",
                count.fits,
                count.misses.len(),
                count.none,
                count.offered,
                count.false_picks.len()
            );
            for m in &count.misses {
                println!("  miss: {m}");
            }
            for f in &count.false_picks {
                println!("  false pick: {f}");
            }
        }
    }

    /// Fails unless each half keeps its false picks to a tenth of what was offered and
    /// its misses to `most_missed` (a fraction) of the requests that fit.
    pub fn bound(&self, most_missed: (usize, usize)) {
        let (num, den) = most_missed;
        for (half, count) in &self.halves {
            assert!(
                count.false_picks.len() * 10 <= count.offered.max(1),
                "{half}: more than a tenth of what was offered fits nothing asked"
            );
            assert!(
                count.misses.len() * den <= count.fits * num,
                "{half}: more than {num} in {den} of the requests that fit missed"
            );
        }
    }
}
