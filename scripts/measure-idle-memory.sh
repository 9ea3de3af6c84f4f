#!/usr/bin/env bash
# Measures the app's idle memory: PSS of the app and all its processes (WebKit's web and
# network processes) after it has sat idle, on a private Xvfb display with a DBus session
# and a tray. Usage: scripts/measure-idle-memory.sh [seconds-idle] (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
idle=${1:-20}
bin=./target/debug/zeta
[[ -x $bin ]] || { echo "build first (scripts/setup.sh)" >&2; exit 1; }
display=""
for n in $(seq 150 199); do
  [[ ! -e /tmp/.X11-unix/X$n && ! -e /tmp/.X$n-lock ]] && { display=$n; break; }
done
home=$(mktemp -d)
Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$home"' EXIT
sleep 1
DISPLAY=":$display" ZETA_HOME="$home" dbus-run-session -- bash -c '
  trayer --edge top --align right --widthtype request --height 24 >/dev/null 2>&1 & tray=$!
  "$0" >/dev/null 2>&1 & app=$!
  sleep "$1"
  tree() { echo "$1"; for c in $(cat /proc/$1/task/*/children 2>/dev/null); do tree "$c"; done; }
  total=0
  for p in $(tree $app); do
    pss=$(awk "/^Pss:/{print \$2}" /proc/$p/smaps_rollup 2>/dev/null || echo 0)
    rss=$(awk "/^Rss:/{print \$2}" /proc/$p/smaps_rollup 2>/dev/null || echo 0)
    printf "%-16s pid %-7s PSS %7s kB  RSS %7s kB\n" "$(cat /proc/$p/comm)" "$p" "$pss" "$rss"
    total=$((total + ${pss:-0}))
  done
  echo "total PSS: $((total / 1024)) MiB after $1 s idle"
  kill $app; wait $app 2>/dev/null; kill $tray
' "$bin" "$idle"
