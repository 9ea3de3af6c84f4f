//! The AT-SPI2 accessibility bus (the `atspi` crate, zbus on tokio): the connection, and a
//! time limit on every call, so an application that hangs cannot hang the agent.
//!
//! - [`read`]: the desktop's applications and windows, and one window's tree.
//! - [`act`]: actions on one element.
//! - [`origin`]: elements' places in the screen's space (on Wayland, moved by their
//!   window's place).

pub mod act;
pub mod origin;
pub mod read;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use atspi::zbus;
use atspi::AccessibilityConnection;
use tokio::sync::Mutex;

use crate::error::{ElementsError, BUS_HINT};

/// How long one call to one application may take.
pub const CALL_LIMIT: Duration = Duration::from_millis(1500);
/// How long connecting to the bus may take.
const CONNECT_LIMIT: Duration = Duration::from_secs(5);

/// The accessibility bus, connected on first use and again after a failure.
#[derive(Clone, Default)]
pub struct Desktop {
    conn: Arc<Mutex<Option<AccessibilityConnection>>>,
    /// Connect here instead of asking the session bus (tests).
    address: Option<String>,
}

impl Desktop {
    /// A desktop reached at a given accessibility bus address, not the session's.
    pub fn at_address(address: impl Into<String>) -> Self {
        Self {
            conn: Arc::default(),
            address: Some(address.into()),
        }
    }

    /// The connection, made now if there is none.
    pub async fn connection(&self) -> Result<zbus::Connection, ElementsError> {
        let mut slot = self.conn.lock().await;
        if let Some(c) = slot.as_ref() {
            return Ok(c.connection().clone());
        }
        let no_bus = |reason: String| ElementsError::NoBus {
            reason,
            hint: BUS_HINT,
        };
        let no_session =
            std::env::var("DBUS_SESSION_BUS_ADDRESS").map_or(true, |v| v.trim().is_empty());
        if self.address.is_none() && no_session {
            return Err(no_bus(
                "there is no DBus session (DBUS_SESSION_BUS_ADDRESS is not set)".into(),
            ));
        }
        let connect = async {
            match &self.address {
                Some(a) => {
                    let address = a
                        .parse()
                        .map_err(|e| no_bus(format!("bad bus address {a}: {e}")))?;
                    AccessibilityConnection::from_address(address)
                        .await
                        .map_err(|e| no_bus(e.to_string()))
                }
                None => {
                    // Apps that watch this (Qt, Chromium) turn their accessibility on.
                    let _ = atspi::connection::set_session_accessibility(true).await;
                    AccessibilityConnection::new()
                        .await
                        .map_err(|e| no_bus(e.to_string()))
                }
            }
        };
        let conn = tokio::time::timeout(CONNECT_LIMIT, connect)
            .await
            .map_err(|_| no_bus(format!("no answer within {} s", CONNECT_LIMIT.as_secs())))??;
        let out = conn.connection().clone();
        *slot = Some(conn);
        Ok(out)
    }

    /// Drops the connection, so the next call connects again (the bus went away).
    pub async fn reset(&self) {
        *self.conn.lock().await = None;
    }
}

/// Runs one bus call with the time limit; `who` names the application for the error.
pub async fn within<T, E: std::fmt::Display>(
    who: &str,
    what: &str,
    call: impl Future<Output = Result<T, E>>,
) -> Result<T, ElementsError> {
    match tokio::time::timeout(CALL_LIMIT, call).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(ElementsError::Bus {
            what: format!("{what} ({who})"),
            reason: e.to_string(),
        }),
        Err(_) => Err(ElementsError::Timeout {
            who: who.to_string(),
            waited: CALL_LIMIT,
        }),
    }
}

/// A proxy for one of the AT-SPI interfaces (`Accessible`, `Component`, `Action`…) of the
/// object `path` of the application at `bus`, reading properties afresh each time.
pub async fn proxy<'a, P>(
    conn: &zbus::Connection,
    bus: &'a str,
    path: &'a str,
) -> Result<P, ElementsError>
where
    P: zbus::proxy::Defaults + From<zbus::Proxy<'a>>,
{
    let what = |e: zbus::Error| ElementsError::Bus {
        what: format!("the element {path} of {bus}"),
        reason: e.to_string(),
    };
    zbus::proxy::Builder::<P>::new(conn)
        .destination(bus)
        .map_err(what)?
        .path(path)
        .map_err(what)?
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .map_err(what)
}
