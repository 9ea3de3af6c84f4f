#!/usr/bin/env bash
# Installs a built .deb into a throwaway root and checks it as a user would meet it:
# the package's contents and declared dependencies, `zeta --version` and
# `zeta doctor --json` run from the installed files, and a removal that leaves the user's
# Zeta home untouched. The root is made with `dpkg --root`, on this machine's libraries.
# With ZETA_CLEAN_ROOT=1 it also makes a clean Debian 12 (debootstrap, minbase, from
# Debian's mirror) and runs `apt install ./Zeta_*.deb` there, which fetches the declared
# dependencies (~340 MB; about 2.5 minutes here), then the same checks and `apt remove`.
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
# dev.zeta.agent.desktop names the app id the desktop portals know it by (GNOME 49 delivers
# shortcut events only to an app id with a desktop entry); hidden from menus.
for path in usr/bin/zeta usr/share/applications/Zeta.desktop usr/share/applications/dev.zeta.agent.desktop usr/share/icons/hicolor/128x128/apps/zeta.png; do
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
say "the package installs, runs and removes cleanly (dpkg --root)"

rpmfile="$(ls target/release/bundle/rpm/*.rpm 2>/dev/null | head -1 || true)"
if [[ -n "$rpmfile" ]]; then
  # The .rpm, read and installed with rpm into a throwaway root on this machine's
  # libraries (no Fedora here: its dependencies are checked by name, not resolved).
  say "contents and dependencies of $(basename "$rpmfile") ($(du -h "$rpmfile" | cut -f1))"
  requires="$(rpm -qp --requires "$rpmfile" 2>/dev/null)"
  for dep in webkit2gtk4.1 gtk3 libayatana-appindicator-gtk3 alsa-lib xdg-utils; do
    grep -qx "$dep" <<<"$requires" || fail "the rpm does not require $dep: $requires"
  done
  files="$(rpm -qpl "$rpmfile" 2>/dev/null)"
  for path in /usr/bin/zeta /usr/share/applications/Zeta.desktop; do
    grep -qx "$path" <<<"$files" || fail "$path is not in the rpm"
  done
  rroot="$(mktemp -d)"
  trap 'rm -rf "$root" "$home" "$rroot"' EXIT
  rpm --root "$rroot" --initdb
  rpm --root "$rroot" -i --nodeps --noscripts "$rpmfile" 2>/dev/null
  [[ -x "$rroot/usr/bin/zeta" ]] || fail "no /usr/bin/zeta after rpm -i"
  [[ "$("$rroot/usr/bin/zeta" --version)" == "zeta $(rpm -qp --qf '%{VERSION}' "$rpmfile" 2>/dev/null)" ]] \
    || fail "zeta --version from the rpm's files does not match the rpm's version"
  rpm --root "$rroot" -e --nodeps --noscripts zeta 2>/dev/null
  [[ ! -e "$rroot/usr/bin/zeta" ]] || fail "/usr/bin/zeta is still there after rpm -e"
  say "the rpm installs, runs and removes cleanly (rpm --root, dependencies not resolved)"
fi

if [[ "${ZETA_CLEAN_ROOT:-}" == 1 ]]; then
  clean="$(mktemp -d)"
  cleanup_clean() { umount "$clean/proc" 2>/dev/null || true; rm -rf "$clean"; }
  trap 'cleanup_clean; rm -rf "$root" "$home"' EXIT
  say "a clean Debian 12 (debootstrap --variant=minbase bookworm)"
  debootstrap --variant=minbase bookworm "$clean" http://deb.debian.org/debian >/dev/null
  cp /etc/resolv.conf "$clean/etc/resolv.conf"
  mkdir -p "$clean/tmp/pkg" && cp "$deb" "$clean/tmp/pkg/"
  mount -t proc proc "$clean/proc"
  start=$(date +%s%N)
  chroot "$clean" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/pkg/$(basename "$deb")" >/dev/null
  echo "apt install in the clean root: $(( ($(date +%s%N) - start) / 1000000 )) ms"
  chroot "$clean" zeta --version | grep -q "^zeta " || fail "zeta --version failed in the clean root"
  chroot "$clean" env HOME=/root zeta doctor --json >"$home/clean-doctor.json" || true
  python3 - "$home/clean-doctor.json" <<'PY'
import json, sys
checks = {c["name"]: c for c in json.load(open(sys.argv[1]))}
for core in ["settings", "database"]:
    assert checks.get(core, {}).get("level") == "ok", f"{core} in the clean root: {checks.get(core)}"
print("doctor in the clean root:", ", ".join(f"{n} {c['level']}" for n, c in checks.items()))
PY
  chroot "$clean" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq zeta >/dev/null
  [[ ! -e "$clean/usr/bin/zeta" && -f "$clean/root/.zeta/settings.json" ]] || fail "apt remove touched ~/.zeta or left /usr/bin/zeta"
  say "apt install, run and apt remove in a clean Debian 12 work"
fi
