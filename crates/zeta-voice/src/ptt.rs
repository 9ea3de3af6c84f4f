//! The push-to-talk decision: key edges from the global hotkey in, "start" or "stop" out.
//! Pure (time is passed in), so every case is a unit test.
//!
//! X11 auto-repeat shows a held key as more presses, or, where detectable auto-repeat is
//! off, as release+press pairs a few milliseconds apart. So a press while the key is down
//! is ignored, and a release only counts once [`REPEAT_GAP_MS`] pass without a press: a
//! held key neither restarts nor stops a recording.

pub use zeta_protocol::settings::HotkeyMode as Mode;

/// A release followed by a press within this many milliseconds is auto-repeat. Generous:
/// events reach the app late on a busy machine, and the listener transcribes during the
/// gap, so it costs no time.
pub const REPEAT_GAP_MS: u64 = 150;

/// A raw edge of the hotkey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Pressed,
    Released,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Start,
    Stop,
}

/// The key's debounced state and whether a recording runs. Times are milliseconds on any
/// monotonic clock.
#[derive(Debug, Clone)]
pub struct PushToTalk {
    mode: Mode,
    down: bool,
    /// A release not yet confirmed (a press before this time makes it auto-repeat).
    release_due: Option<u64>,
    recording: bool,
}

impl PushToTalk {
    pub fn new(mode: Mode) -> Self {
        Self {
            mode,
            down: false,
            release_due: None,
            recording: false,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    pub fn is_recording(&self) -> bool {
        self.recording
    }

    /// A recording started or ended some other way (tray, `zeta listen`, length cap, lost
    /// device). A key still held does not start a new one.
    pub fn set_recording(&mut self, recording: bool) {
        self.recording = recording;
    }

    /// When [`PushToTalk::tick`] must be called next to confirm a release.
    pub fn deadline(&self) -> Option<u64> {
        self.release_due
    }

    /// A hotkey edge at `now`. Call [`PushToTalk::tick`] with the same time first, so a
    /// release that is due counts before this edge.
    pub fn edge(&mut self, edge: Edge, now: u64) -> Option<Action> {
        match edge {
            // The press of an auto-repeat release+press pair.
            Edge::Pressed if self.release_due.take().is_some() => None,
            // Auto-repeat while held.
            Edge::Pressed if self.down => None,
            Edge::Pressed => {
                self.down = true;
                match (self.mode, self.recording) {
                    (_, false) => self.start(),
                    (Mode::Toggle, true) => self.stop(),
                    (Mode::Hold, true) => None,
                }
            }
            Edge::Released => {
                if self.down && self.release_due.is_none() {
                    self.release_due = Some(now + REPEAT_GAP_MS);
                }
                None
            }
        }
    }

    /// Confirms a release whose repeat gap has passed.
    pub fn tick(&mut self, now: u64) -> Option<Action> {
        match self.release_due {
            Some(due) if now >= due => {
                self.release_due = None;
                self.down = false;
                match self.mode {
                    Mode::Hold if self.recording => self.stop(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn start(&mut self) -> Option<Action> {
        self.recording = true;
        Some(Action::Start)
    }

    fn stop(&mut self) -> Option<Action> {
        self.recording = false;
        Some(Action::Stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Action::*;
    use Edge::*;

    /// Runs `(time, edge)` steps, ticking every millisecond between them, and returns the
    /// actions with their times.
    fn run(mode: Mode, steps: &[(u64, Edge)], until: u64) -> Vec<(u64, Action)> {
        let mut ptt = PushToTalk::new(mode);
        let mut out = Vec::new();
        let mut steps = steps.iter().peekable();
        for now in 0..=until {
            if let Some(a) = ptt.tick(now) {
                out.push((now, a));
            }
            while let Some((_, edge)) = steps.next_if(|(t, _)| *t == now) {
                if let Some(a) = ptt.edge(*edge, now) {
                    out.push((now, a));
                }
            }
        }
        out
    }

    #[test]
    fn hold_records_from_press_to_confirmed_release() {
        let got = run(Mode::Hold, &[(10, Pressed), (500, Released)], 1000);
        assert_eq!(got, vec![(10, Start), (500 + REPEAT_GAP_MS, Stop)]);
    }

    #[test]
    fn repeated_presses_while_held_change_nothing() {
        let mut steps = vec![(0, Pressed)];
        steps.extend((1..20).map(|i| (600 + i * 40, Pressed)));
        steps.push((1500, Released));
        let got = run(Mode::Hold, &steps, 2000);
        assert_eq!(got, vec![(0, Start), (1500 + REPEAT_GAP_MS, Stop)]);
    }

    #[test]
    fn release_press_pairs_of_auto_repeat_do_not_split_a_recording() {
        let mut steps = vec![(0, Pressed)];
        for i in 0..20 {
            let t = 660 + i * 40;
            steps.push((t, Released));
            steps.push((t + 2, Pressed));
        }
        steps.push((2000, Released));
        for mode in [Mode::Hold, Mode::Toggle] {
            let got = run(mode, &steps, 2500);
            let want = match mode {
                Mode::Hold => vec![(0, Start), (2000 + REPEAT_GAP_MS, Stop)],
                Mode::Toggle => vec![(0, Start)],
            };
            assert_eq!(got, want, "{mode:?}");
        }
    }

    #[test]
    fn a_pair_on_the_same_millisecond_is_auto_repeat_too() {
        let got = run(
            Mode::Hold,
            &[
                (0, Pressed),
                (700, Released),
                (700, Pressed),
                (900, Released),
            ],
            1200,
        );
        assert_eq!(got, vec![(0, Start), (900 + REPEAT_GAP_MS, Stop)]);
    }

    #[test]
    fn a_real_second_press_after_the_gap_starts_again() {
        let got = run(
            Mode::Hold,
            &[
                (0, Pressed),
                (300, Released),
                (600, Pressed),
                (1000, Released),
            ],
            1300,
        );
        assert_eq!(
            got,
            vec![
                (0, Start),
                (300 + REPEAT_GAP_MS, Stop),
                (600, Start),
                (1000 + REPEAT_GAP_MS, Stop)
            ]
        );
    }

    #[test]
    fn toggle_starts_on_one_press_and_stops_on_the_next() {
        let got = run(
            Mode::Toggle,
            &[
                (0, Pressed),
                (100, Released),
                (900, Pressed),
                (1000, Released),
            ],
            1200,
        );
        assert_eq!(got, vec![(0, Start), (900, Stop)]);
    }

    #[test]
    fn a_release_without_a_press_does_nothing() {
        assert_eq!(run(Mode::Hold, &[(5, Released)], 200), vec![]);
    }

    #[test]
    fn a_recording_ended_elsewhere_is_not_restarted_by_the_held_key() {
        let mut ptt = PushToTalk::new(Mode::Hold);
        assert_eq!(ptt.edge(Pressed, 0), Some(Start));
        // The length cap ends it while the key is still held.
        ptt.set_recording(false);
        assert_eq!(ptt.edge(Pressed, 700), None);
        assert_eq!(ptt.edge(Released, 900), None);
        assert_eq!(ptt.tick(900 + REPEAT_GAP_MS), None);
        assert_eq!(ptt.edge(Pressed, 1500), Some(Start));
    }

    #[test]
    fn the_deadline_is_the_pending_release() {
        let mut ptt = PushToTalk::new(Mode::Hold);
        assert_eq!(ptt.deadline(), None);
        ptt.edge(Pressed, 0);
        ptt.edge(Released, 100);
        assert_eq!(ptt.deadline(), Some(100 + REPEAT_GAP_MS));
        assert_eq!(ptt.tick(100 + REPEAT_GAP_MS - 1), None);
        assert_eq!(ptt.tick(100 + REPEAT_GAP_MS), Some(Stop));
        assert_eq!(ptt.deadline(), None);
    }
}
