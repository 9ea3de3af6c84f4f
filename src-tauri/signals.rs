//! SIGTERM and SIGINT for the app, `zeta run` and `zeta worker`. The first signal asks the
//! worker to stop: the running call's process group is killed and the task is recorded as
//! interrupted (to resume on the next start) or cancelled; the worker lock is released and
//! the process exits cleanly. A second signal exits at once, after killing every tool
//! process group still alive.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use tokio::signal::unix::{signal, Signal, SignalKind};

/// Which signal arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGTERM: the session ends, the system shuts down, `kill PID`.
    Terminate,
    /// SIGINT: Ctrl+C on the terminal.
    Interrupt,
}

impl Stop {
    /// The conventional exit status after this signal (128 + its number).
    pub fn exit_code(self) -> u8 {
        match self {
            Stop::Terminate => 143,
            Stop::Interrupt => 130,
        }
    }

    fn number(self) -> i32 {
        match self {
            Stop::Terminate => 15,
            Stop::Interrupt => 2,
        }
    }

    fn from_number(n: i32) -> Option<Self> {
        match n {
            15 => Some(Stop::Terminate),
            2 => Some(Stop::Interrupt),
            _ => None,
        }
    }
}

/// The first signal received, once one has been.
#[derive(Debug, Clone, Default)]
pub struct Received(Arc<AtomicI32>);

impl Received {
    pub fn get(&self) -> Option<Stop> {
        Stop::from_number(self.0.load(Ordering::SeqCst))
    }
}

/// Watches for SIGTERM and SIGINT on the current tokio runtime; `on_first` runs on the
/// first. A signal handler that cannot be installed is logged, and the default (exit at
/// once) stays.
pub fn watch(on_first: impl FnOnce(Stop) + Send + 'static) -> Received {
    let received = Received::default();
    let seen = received.clone();
    let (mut term, mut int) = match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(term), Ok(int)) => (term, int),
        (Err(e), _) | (_, Err(e)) => {
            tracing::warn!("could not watch SIGTERM/SIGINT: {e}");
            return received;
        }
    };
    tokio::spawn(async move {
        let first = next(&mut term, &mut int).await;
        seen.0.store(first.number(), Ordering::SeqCst);
        tracing::warn!("{first:?} received: stopping the running task");
        err!(
            "zeta: stopping: the running call is being ended and the task recorded (send the signal again to exit at once)"
        );
        on_first(first);
        let second = next(&mut term, &mut int).await;
        let killed = zeta_tools::shell::kill_live_groups();
        err!("zeta: second signal: exiting now ({killed} tool process group(s) killed)");
        std::process::exit(i32::from(second.exit_code()));
    });
    received
}

async fn next(term: &mut Signal, int: &mut Signal) -> Stop {
    tokio::select! {
        _ = term.recv() => Stop::Terminate,
        _ = int.recv() => Stop::Interrupt,
    }
}
