//! The model's streamed text joined for the window: deltas of one task are held for up to
//! `EVERY` and sent as one, and any other event sends what is held first, so the window
//! sees the same text in the same order with far fewer messages (each one a script the
//! web process compiles, and a render of the reply's tail): at most ten a second.

use std::time::Duration;

use tokio::time::Instant;
use zeta_core::Event;

/// Streamed text is held this long at most before the window gets it.
pub const EVERY: Duration = Duration::from_millis(100);

/// Streamed text not sent yet: its task, the text, and when it must go.
struct Held {
    task_id: i64,
    text: String,
    due: Instant,
}

#[derive(Default)]
pub struct Deltas {
    held: Option<Held>,
}

impl Deltas {
    /// What to send now, in order, for `event` arriving at `now`: a delta is held (after
    /// sending another task's held text); any other event goes after what is held.
    pub fn on(&mut self, event: Event, now: Instant) -> Vec<Event> {
        match event {
            Event::LlmDelta { task_id, text } => match &mut self.held {
                Some(h) if h.task_id == task_id => {
                    h.text.push_str(&text);
                    Vec::new()
                }
                _ => {
                    let before = self.take();
                    self.held = Some(Held {
                        task_id,
                        text,
                        due: now + EVERY,
                    });
                    before.into_iter().collect()
                }
            },
            other => self.take().into_iter().chain([other]).collect(),
        }
    }

    /// When the held text must go, if any is held.
    pub fn due(&self) -> Option<Instant> {
        self.held.as_ref().map(|h| h.due)
    }

    /// The held text as one delta, now.
    pub fn take(&mut self) -> Option<Event> {
        self.held.take().map(|h| Event::LlmDelta {
            task_id: h.task_id,
            text: h.text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(task_id: i64, text: &str) -> Event {
        Event::LlmDelta {
            task_id,
            text: text.into(),
        }
    }

    #[tokio::test]
    async fn deltas_are_joined_and_sent_before_anything_else_in_order() {
        let now = Instant::now();
        let mut d = Deltas::default();
        assert!(d.on(delta(1, "Hel"), now).is_empty());
        assert!(d.on(delta(1, "lo"), now).is_empty());
        assert_eq!(d.due(), Some(now + EVERY));
        // Another task's text sends this one's first.
        assert_eq!(d.on(delta(2, "x"), now), vec![delta(1, "Hello")]);
        // Any other event goes after what is held.
        let other = Event::QueueChanged;
        assert_eq!(d.on(other.clone(), now), vec![delta(2, "x"), other.clone()]);
        assert_eq!(d.due(), None);
        assert_eq!(d.on(other.clone(), now), vec![other]);
        assert!(d.take().is_none());
        // A stream of a thousand deltas is one message per `EVERY`, with all its text.
        let words: Vec<String> = (0..1000).map(|i| format!("w{i} ")).collect();
        for w in &words {
            assert!(d.on(delta(3, w), now).is_empty());
        }
        assert_eq!(d.take(), Some(delta(3, &words.concat())));
    }
}
