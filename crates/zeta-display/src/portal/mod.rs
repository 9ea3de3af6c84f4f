//! The desktop portals (xdg-desktop-portal, through ashpd): how GNOME and KDE let a
//! program bind a global key ([`shortcuts`]), send keys and clicks ([`remote`]), and see the
//! screen ([`screencast`] over PipeWire, or [`screenshot`]) with the person's consent. Every call has a time limit, so a portal that never answers cannot
//! hang Zeta; a request that waits on the person gets longer.

pub mod remote;
pub mod screencast;
pub mod screenshot;
pub mod shortcuts;
pub mod tokens;

use std::future::Future;
use std::time::Duration;

use crate::DisplayError;

/// How long a call that does not ask the person may take.
pub const CALL_LIMIT: Duration = Duration::from_secs(10);
/// How long a request that shows the person a dialog may wait for them.
pub const ASK_LIMIT: Duration = Duration::from_secs(120);

/// The session bus the portals are on, or the bus at `address` (tests).
pub async fn connect(address: Option<&str>) -> Result<ashpd::zbus::Connection, DisplayError> {
    let failed = |e: ashpd::zbus::Error| DisplayError::Portal {
        portal: "desktop",
        doing: "connecting to the session bus",
        reason: e.to_string(),
    };
    let built = match address {
        Some(a) => {
            ashpd::zbus::connection::Builder::address(a)
                .map_err(failed)?
                .build()
                .await
        }
        None => ashpd::zbus::Connection::session().await,
    };
    built.map_err(failed)
}

/// Tells the portal which app this is (GNOME 49 sends shortcut events only to a registered
/// app id with a desktop entry). Portals before 1.19 have no registry: nothing to do there.
pub async fn register_app(conn: &ashpd::zbus::Connection, app_id: &str) {
    let Ok(id) = ashpd::AppID::try_from(app_id) else {
        tracing::debug!("{app_id} is not an app id the portal takes");
        return;
    };
    let registered = tokio::time::timeout(
        CALL_LIMIT,
        ashpd::register_host_app_with_connection(conn.clone(), id),
    )
    .await;
    if let Ok(Err(e)) = registered {
        tracing::debug!("the portal's app registry: {e}");
    }
}

/// Runs `call` on `portal` within `limit`, turning ashpd's errors into Zeta's.
pub(crate) async fn within<T>(
    portal: &'static str,
    doing: &'static str,
    limit: Duration,
    call: impl Future<Output = Result<T, ashpd::Error>>,
) -> Result<T, DisplayError> {
    match tokio::time::timeout(limit, call).await {
        Err(_) => Err(DisplayError::NoAnswer {
            portal,
            doing,
            after: limit,
        }),
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(error(portal, doing, e)),
    }
}

/// ashpd's error as Zeta's: a "no" from the person, a portal the desktop lacks, or a
/// failure.
pub(crate) fn error(portal: &'static str, doing: &'static str, e: ashpd::Error) -> DisplayError {
    match e {
        ashpd::Error::Response(ashpd::desktop::ResponseError::Cancelled)
        | ashpd::Error::Portal(ashpd::PortalError::Cancelled(_))
        | ashpd::Error::Portal(ashpd::PortalError::NotAllowed(_)) => {
            DisplayError::Refused { portal, doing }
        }
        ashpd::Error::PortalNotFound(_) => DisplayError::NotOffered { portal, why: None },
        ashpd::Error::RequiresVersion(want, have) => DisplayError::NotOffered {
            portal,
            why: Some(format!("version {have}; Zeta needs {want}")),
        },
        other => DisplayError::Portal {
            portal,
            doing,
            reason: other.to_string(),
        },
    }
}
