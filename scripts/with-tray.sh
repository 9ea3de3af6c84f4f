#!/usr/bin/env bash
# Runs a command with an XEmbed tray (trayer) on $DISPLAY, ending the tray by PID after.
set -uo pipefail
trayer --edge top --align right --widthtype request --height 24 >/dev/null 2>&1 &
tray=$!
"$@"
status=$?
kill "$tray" 2>/dev/null
wait "$tray" 2>/dev/null
exit $status
