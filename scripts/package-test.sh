#!/usr/bin/env bash
# Installs a built .deb into a throwaway root and checks it as a user would meet it:
# the package's contents and declared dependencies, `zeta --version` and
# `zeta doctor --json` run from the installed files, and a removal that leaves the user's
# Zeta home untouched. The root is made with `dpkg --root` and the dependencies are those
# of this machine (a clean Debian 12 chroot needs debootstrap and ~300 MB of packages:
# see the README); anything it starts is ended by PID.
#   scripts/package-test.sh [PATH.deb]   (default: the one scripts/build-release.sh made)
set -euo pipefail
cd "$(dirname "$0")/.."
deb="${1:-$(ls target/release/bundle/deb/*.deb | head -1)}"
say() { printf '\033[1m[package]\033[0m %s\n' "$*"; }
fail() { echo "package test: $*" >&2; exit 1; }

root="$(mktemp -d)"
home="$(mktemp -d)"
trap 'rm -rf "$root" "$home"' EXIT
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
touch "$root/var/lib/dpkg/status"

say "contents and dependencies of $(basename "$deb") ($(du -h "$deb" | cut -f1))"
fields="$(dpkg-deb -f "$deb" Package Depends)"
grep -q '^Package: zeta$' <<<"$fields" || fail "the package is not named zeta: $fields"
for dep in libwebkit2gtk-4.1-0 libgtk-3-0 libayatana-appindicator3-1 libasound2 xdg-utils; do
  grep -q "$dep" <<<"$fields" || fail "Depends lacks $dep: $fields"
done
contents="$(dpkg-deb -c "$deb")"
for path in usr/bin/zeta usr/share/applications/Zeta.desktop usr/share/icons/hicolor/128x128/apps/zeta.png; do
  grep -Eq " (\./)?${path}$" <<<"$contents" || fail "/$path is not in the package"
done
if grep -Eq 'models/|\.gguf|\.bin$|llama' <<<"$contents"; then
  fail "the package carries a model or a model server; they are fetched on first use"
fi

say "installing into a throwaway root with dpkg --root (this machine's libraries)"
start=$(date +%s%N)
dpkg --root="$root" --force-depends --force-not-root --log=/dev/null -i "$deb" >/dev/null 2>&1
echo "install: $(( ($(date +%s%N) - start) / 1000000 )) ms"
zeta="$root/usr/bin/zeta"
[[ -x "$zeta" ]] || fail "no executable /usr/bin/zeta after install"
grep -q '^Exec=zeta' "$root/usr/share/applications/Zeta.desktop" || fail "the desktop entry does not start zeta"

version="$("$zeta" --version)"
[[ "$version" == "zeta $(dpkg-deb -f "$deb" Version)" ]] || fail "zeta --version said: $version"
say "$version"

# The doctor from the installed binary, on a fresh home: valid JSON, and its core checks
# (settings, database) pass. Display and tray may warn here; they are not core.
ZETA_HOME="$home/.zeta" HOME="$home" "$zeta" doctor --json >"$home/doctor.json" || true
python3 - "$home/doctor.json" <<'PY'
import json, sys
checks = {c["name"]: c for c in json.load(open(sys.argv[1]))}
for core in ["settings", "database"]:
    assert core in checks, f"doctor has no {core} check: {sorted(checks)}"
    assert checks[core]["level"] == "ok", f"{core}: {checks[core]}"
print("doctor:", ", ".join(f"{n} {c['level']}" for n, c in checks.items()))
PY
[[ -f "$home/.zeta/settings.json" ]] || fail "the doctor did not create the user's settings"

say "removing the package: the user's Zeta home stays"
dpkg --root="$root" --force-not-root --log=/dev/null -r zeta >/dev/null
[[ ! -e "$zeta" ]] || fail "/usr/bin/zeta is still there after removal"
[[ -f "$home/.zeta/settings.json" && -f "$home/.zeta/zeta.db" ]] || fail "removal touched the user's ~/.zeta"
say "the package installs, runs and removes cleanly"
