//! The environment of the programs the agent starts for the user: the user's own, without
//! what the app set for itself. The app names those variables, separated by `:`, in
//! `ZETA_ADDED_ENV` (for instance how its own web views render); they are removed from
//! every command, app and URL opener the tools start, and so is Zeta's own API key.
//! Where Zeta was started without the login names a terminal has (`USER`, `LOGNAME`: a
//! service, a bare session), they are given from the account the process runs as, so
//! `echo $USER` says what `whoami` says, as in the person's own terminal.

use std::ffi::OsString;

/// The variable that names what the app added to its own environment.
pub const ADDED_BY_ZETA: &str = "ZETA_ADDED_ENV";

/// The variables to remove from a child's environment, `ADDED_BY_ZETA` included.
pub fn added_by_zeta() -> Vec<OsString> {
    let Some(list) = std::env::var_os(ADDED_BY_ZETA) else {
        return Vec::new();
    };
    let list = list.to_string_lossy().into_owned();
    list.split(':')
        .filter(|name| !name.is_empty())
        .map(OsString::from)
        .chain(std::iter::once(OsString::from(ADDED_BY_ZETA)))
        .collect()
}

/// Zeta's own key variable: a child never reads Zeta's API key from its environment.
/// (The providers' usual names, `OPENAI_API_KEY` and the like, are the user's: their own
/// programs may need them.)
const ZETA_KEY: &str = "ZETA_LLM_API_KEY";

/// Removes what the app added, and Zeta's own key, from `command`'s environment, and
/// gives it the login names it lacks.
pub fn scrub(command: &mut tokio::process::Command) {
    for name in added_by_zeta() {
        command.env_remove(name);
    }
    command.env_remove(ZETA_KEY);
    for (name, value) in missing_login_names() {
        command.env(name, value);
    }
}

/// The login names (`USER`, `LOGNAME`) this process's environment lacks or holds empty,
/// with the name of the account it runs as; none where that account cannot be read.
fn missing_login_names() -> Vec<(&'static str, String)> {
    let missing: Vec<&'static str> = ["USER", "LOGNAME"]
        .into_iter()
        .filter(|n| std::env::var_os(n).is_none_or(|v| v.is_empty()))
        .collect();
    if missing.is_empty() {
        return Vec::new();
    }
    let Ok(Some(account)) = nix::unistd::User::from_uid(nix::unistd::getuid()) else {
        return Vec::new();
    };
    missing
        .into_iter()
        .map(|n| (n, account.name.clone()))
        .collect()
}

/// How long asking the session bus for the accessibility bus may take.
const A11Y_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

/// An application started for a GUI task shares its accessibility tree: GTK's bridge on
/// (`NO_AT_BRIDGE` removed, `GNOME_ACCESSIBILITY` for GTK 2), Qt's on
/// (`QT_ACCESSIBILITY`, `QT_LINUX_ACCESSIBILITY_ALWAYS_ON`), Chromium's and Electron's on
/// (`ACCESSIBILITY_ENABLED`), and the accessibility bus's address given
/// (`AT_SPI_BUS_ADDRESS`): asking for it starts the bus, which Qt waits for rather than
/// starting it itself (a Qt application started before the bus never joins it).
pub async fn accessible(command: &mut tokio::process::Command) {
    command
        .env_remove("NO_AT_BRIDGE")
        .env("GNOME_ACCESSIBILITY", "1")
        .env("QT_ACCESSIBILITY", "1")
        .env("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")
        .env("ACCESSIBILITY_ENABLED", "1");
    if let Some(address) = a11y_bus().await {
        command.env("AT_SPI_BUS_ADDRESS", address);
    }
}

/// The accessibility bus's address (`org.a11y.Bus.GetAddress` on the session bus), or
/// `None` when there is no session bus or no accessibility bus within the time limit.
pub async fn a11y_bus() -> Option<String> {
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS")?;
    let ask = async {
        let conn = zbus::Connection::session().await.ok()?;
        let reply = conn
            .call_method(
                Some("org.a11y.Bus"),
                "/org/a11y/bus",
                Some("org.a11y.Bus"),
                "GetAddress",
                &(),
            )
            .await
            .ok()?;
        reply.body().deserialize::<String>().ok()
    };
    tokio::time::timeout(A11Y_LIMIT, ask)
        .await
        .ok()
        .flatten()
        .filter(|a| !a.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_child_gets_the_users_environment_without_what_zeta_added() {
        // One test owns these variables (no other test in this crate reads them).
        std::env::set_var("ZETA_TEST_ADDED_A", "1");
        std::env::set_var(ZETA_KEY, "sk-test-secret");
        std::env::set_var("ZETA_TEST_USERS_OWN", "kept");
        std::env::set_var(ADDED_BY_ZETA, "ZETA_TEST_ADDED_A::");
        let mut command = tokio::process::Command::new("env");
        scrub(&mut command);
        let out = command.output().await.unwrap();
        let env = String::from_utf8_lossy(&out.stdout);
        assert!(env.contains("ZETA_TEST_USERS_OWN=kept"), "{env}");
        assert!(!env.contains("ZETA_TEST_ADDED_A"), "{env}");
        assert!(!env.contains(ADDED_BY_ZETA), "{env}");
        assert!(
            !env.contains("sk-test-secret"),
            "Zeta's key stays home: {env}"
        );
        std::env::remove_var(ZETA_KEY);
        std::env::remove_var(ADDED_BY_ZETA);
        assert!(added_by_zeta().is_empty());

        // The login names: given where missing or empty, as `id -un` says; kept where set.
        let (user, logname) = (std::env::var_os("USER"), std::env::var_os("LOGNAME"));
        let names = |user: Option<&str>, logname: Option<&str>| {
            for (name, value) in [("USER", user), ("LOGNAME", logname)] {
                match value {
                    Some(v) => std::env::set_var(name, v),
                    None => std::env::remove_var(name),
                }
            }
            let mut command = tokio::process::Command::new("sh");
            command.args(["-c", "echo \"$USER:$LOGNAME:$(id -un)\""]);
            scrub(&mut command);
            command
        };
        let out = names(None, Some("")).output().await.unwrap();
        let said = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let parts: Vec<&str> = said.split(':').collect();
        assert_eq!(parts.len(), 3, "{said}");
        assert!(!parts[2].is_empty(), "{said}");
        assert_eq!(parts[0], parts[2], "{said}");
        assert_eq!(parts[1], parts[2], "{said}");
        let out = names(Some("someone"), Some("else")).output().await.unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.starts_with("someone:else:"), "{said}");
        for (name, value) in [("USER", user), ("LOGNAME", logname)] {
            match value {
                Some(v) => std::env::set_var(name, v),
                None => std::env::remove_var(name),
            }
        }
    }
}
