//! Programs that talk to the person's desktop session: the display (X11, Wayland), the
//! session bus and the user's service manager, terminal servers (tmux, screen), the
//! sound server, the keyring. A command nobody approved runs without the session
//! (zeta-tools' `doors`), where these would fail, or answer "nothing there" and be
//! believed. So the judge reads what each asks of the session: asking for information
//! (`tmux ls`, `xdotool getactivewindow`, `gsettings get`) runs with the session, on its
//! own, when the rest of the command only reads; anything else (typing, setting,
//! starting, playing) needs a person, and runs with the session once approved.

use crate::catalogue::SESSION_CLIENTS;
pub use crate::seen::SessionUse;

/// What `program args…` asks of the session; `None` when it does not reach it. A form
/// not listed as reading acts.
pub fn session_use(program: &str, args: &[&str]) -> Option<SessionUse> {
    let has = |flags: &[&str]| args.iter().any(|a| flags.contains(a));
    let first = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .copied()
        .unwrap_or("");
    let reaches = match program {
        "busctl" | "systemctl" | "systemd-run" => has(&["--user"]),
        "gdbus" => has(&["--session", "-e"]),
        "dbus-send" => !has(&["--system"]),
        _ => SESSION_CLIENTS.contains(&program),
    };
    if !reaches {
        return None;
    }
    let only = |allowed: &[&str]| args.iter().all(|a| allowed.contains(a));
    let reads = match program {
        "tmux" => matches!(
            first,
            "ls" | "list-sessions"
                | "list-windows"
                | "lsw"
                | "list-panes"
                | "lsp"
                | "list-clients"
                | "has-session"
                | "has"
        ),
        "screen" => only(&["-ls", "-list"]) && !args.is_empty(),
        "xdotool" => args.iter().all(|a| {
            a.starts_with("get")
                || matches!(
                    *a,
                    "search" | "--name" | "--class" | "--classname" | "--pid"
                )
                || !a.starts_with('-') && !is_xdotool_command(a)
        }),
        "xprop" | "xwininfo" | "xdpyinfo" => !has(&["-set", "-remove", "-f"]),
        "xrandr" => only(&[
            "-q",
            "--query",
            "--listmonitors",
            "--listactivemonitors",
            "--current",
        ]),
        "wmctrl" => only(&["-l", "-d", "-m", "-p", "-G", "-x", "-lp", "-lx", "-lG"]),
        "xclip" => has(&["-o", "-out"]),
        "xsel" => has(&["-o", "--output"]) || only(&["-b", "-p", "-s", "--clipboard"]),
        "wl-paste" => true,
        "xset" => only(&["q", "-q"]) && !args.is_empty(),
        "gsettings" => matches!(
            first,
            "get"
                | "list-schemas"
                | "list-keys"
                | "list-children"
                | "list-recursively"
                | "range"
                | "describe"
                | "writable"
        ),
        "dconf" => matches!(first, "read" | "list" | "dump"),
        "busctl" => matches!(
            first,
            "list" | "status" | "tree" | "introspect" | "get-property"
        ),
        "systemctl" => matches!(
            first,
            "status"
                | "list-units"
                | "list-unit-files"
                | "list-timers"
                | "is-active"
                | "is-enabled"
                | "is-failed"
                | "show"
                | "cat"
        ),
        "gdbus" => matches!(first, "introspect" | "monitor"),
        // A service, a path and a method call; fewer lists.
        "qdbus" => args.iter().filter(|a| !a.starts_with('-')).count() < 3,
        "pactl" => matches!(first, "list" | "info" | "stat") || first.starts_with("get-"),
        "wpctl" => matches!(first, "status" | "inspect" | "get-volume"),
        "playerctl" => {
            matches!(first, "status" | "metadata" | "position" | "volume" | "-l") && args.len() <= 2
                || has(&["--list-all", "-l"])
        }
        "swaymsg" => has(&["-t"]) && args.iter().any(|a| a.starts_with("get_")),
        "hyprctl" => matches!(
            first,
            "clients" | "monitors" | "workspaces" | "activewindow" | "devices" | "version"
        ),
        _ => false,
    };
    Some(if reads {
        SessionUse::Reads
    } else {
        SessionUse::Acts
    })
}

/// xdotool's commands that act (anything not starting with `get`, `search` included
/// among the reads).
fn is_xdotool_command(word: &str) -> bool {
    matches!(
        word,
        "type"
            | "key"
            | "keydown"
            | "keyup"
            | "mousemove"
            | "mousemove_relative"
            | "click"
            | "mousedown"
            | "mouseup"
            | "windowactivate"
            | "windowfocus"
            | "windowmap"
            | "windowunmap"
            | "windowkill"
            | "windowclose"
            | "windowmove"
            | "windowsize"
            | "windowminimize"
            | "windowraise"
            | "windowreparent"
            | "windowstate"
            | "set_window"
            | "set_desktop"
            | "set_desktop_for_window"
            | "set_num_desktops"
            | "behave"
            | "behave_screen_edge"
            | "exec"
            | "sleep"
            | "selectwindow"
            | "windowquit"
    )
}

/// True when every program in `command` only reads (`read_only`'s readers) or asks the
/// session for information, and at least one asks the session: such a command runs
/// with the session on its own. Anything the judge cannot follow is false.
pub fn reads_session(command: &str) -> bool {
    // One walk of the line for both questions.
    crate::seen(command).is_some_and(|seen| {
        seen.session == Some(SessionUse::Reads)
            && crate::read_only::reads_only_or_session(&seen, command)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asking_the_session_runs_with_it_and_acting_needs_a_person() {
        let reading = [
            "tmux ls",
            "tmux list-sessions",
            "screen -ls",
            "xdotool getactivewindow getwindowname",
            "xdotool search --name Terminal",
            "xprop -root _NET_ACTIVE_WINDOW",
            "xrandr",
            "xrandr --listmonitors",
            "wmctrl -l",
            "xclip -o -selection clipboard",
            "xsel -b",
            "gsettings get org.gnome.desktop.interface gtk-theme",
            "busctl --user list",
            "systemctl --user status pipewire",
            "systemctl --user list-units | grep -i audio",
            "pactl list short sinks",
            "tmux ls | wc -l",
            "qdbus org.kde.konsole",
        ];
        let acting = [
            "tmux send-keys -t 0 'ls' Enter",
            "tmux new-window",
            "tmux kill-server",
            "screen -X stuff 'rm -rf ~\\n'",
            "xdotool type hello",
            "xdotool search --name Terminal key Return",
            "xdotool search --name Terminal windowactivate",
            "xclip -selection clipboard < secret.txt",
            "xsel -b -i < notes.txt",
            "xrandr --output HDMI-1 --off",
            "wmctrl -c Firefox",
            "gsettings set org.gnome.desktop.background picture-uri x",
            "dconf write /org/x 1",
            "systemctl --user restart pipewire",
            "systemd-run --user sh -c 'rm -rf ~'",
            "busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1 x y",
            "dbus-send --print-reply --dest=org.x / org.x.Y",
            "notify-send hi",
            "xdg-open https://example.com",
            "paplay ding.wav",
            "secret-tool lookup service zeta",
            "tmux ls; python3 evil.py",
            "tmux ls && rm -rf ~/x",
            "tmux ls > list.txt",
        ];
        let misses: Vec<&str> = reading
            .iter()
            .copied()
            .filter(|c| !reads_session(c))
            .collect();
        let alarms: Vec<&str> = acting
            .iter()
            .copied()
            .filter(|c| reads_session(c))
            .collect();
        assert!(misses.is_empty(), "reads that would ask: {misses:?}");
        assert!(alarms.is_empty(), "acts taken for reads: {alarms:?}");
        for command in [
            "ls ~",
            "cat notes.txt",
            "systemctl status ssh",
            "busctl list",
        ] {
            assert!(
                !reads_session(command),
                "{command} does not reach the session"
            );
        }
    }
}
