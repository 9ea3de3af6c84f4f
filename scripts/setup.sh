#!/usr/bin/env bash
# Installs what is missing for Zeta on Debian/Ubuntu and builds it. Idempotent: when all is
# there it only rebuilds what changed.
#   scripts/setup.sh            app build
#   scripts/setup.sh --tests    also what the test suite needs (Xvfb, WebDriver, tray, ...)
#   scripts/setup.sh --release  what scripts/build-release.sh needs (no debug build)
set -euo pipefail
cd "$(dirname "$0")/.."

for_tests=false
for_release=false
[[ "${1:-}" == "--tests" ]] && for_tests=true
[[ "${1:-}" == "--release" ]] && for_release=true

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# Build and run: webkit/gtk for tauri, the AppIndicator runtime for the tray, pipewire,
# gbm and xcb-randr for screen capture (xcap), clang for bindgen, xdg-utils for open_url,
# libdbus for the Secret Service (API keys in the OS keyring), cmake to build whisper.cpp
# (whisper-rs), libasound2-dev for the microphone (cpal on ALSA), python3-venv for the local
# model's llama-cpp-python, libturbojpeg0-dev for screenshots' JPEG (libjpeg-turbo).
packages=(build-essential pkg-config libssl-dev libwebkit2gtk-4.1-dev libayatana-appindicator3-1
  libpipewire-0.3-dev libgbm-dev libxcb-randr0-dev clang libclang-dev xdg-utils curl libdbus-1-dev
  cmake libasound2-dev python3-venv libturbojpeg0-dev)
if $for_release; then
  # Tauri's bundler finds the tray library through pkg-config to declare it in the .deb;
  # debootstrap makes the clean Debian 12 that scripts/package-test.sh installs it into;
  # rpm reads and installs the .rpm into a throwaway root there.
  packages+=(libayatana-appindicator3-dev debootstrap rpm)
fi
if $for_tests; then
  # Headless desktop: X server, input/window tools, WebDriver, XEmbed tray, DBus session,
  # a terminal and an event viewer as real targets for the keyboard and mouse tests, and a
  # real Secret Service (gnome-keyring) for the keyring test, and real speech (espeak-ng,
  # sox) for the voice tests.
  # The screen-element tests: GTK3 for Python (the test form), the accessibility bus
  # (at-spi2-core), OCR (tesseract-ocr), an ordinary GTK application (galculator) and Qt5
  # for Python (python3-pyqt5: the Qt test form); Tk for Python (python3-tk: an editor with
  # no accessibility tree, read by OCR).
  # The undo corpus changes files with the everyday tools that change them: git, zip,
  # make, perl, patch.
  # Wayland: sway, whose headless back-end is the real compositor the Wayland tests run on,
  # wtype, a virtual keyboard client that holds keys on its seat; weston, a compositor with
  # neither (GNOME-like: input through the portal); the real portal front-end; PipeWire,
  # WirePlumber and a GStreamer test source for the ScreenCast portal's frames.
  packages+=(xvfb xdotool webkit2gtk-driver trayer dbus imagemagick xterm x11-utils python3 gnome-keyring
    espeak-ng sox python3-gi gir1.2-gtk-3.0 gir1.2-gtk-4.0 at-spi2-core tesseract-ocr galculator python3-pyqt5 python3-tk
    git zip unzip make perl patch sway wtype weston xdg-desktop-portal
    pipewire wireplumber gstreamer1.0-pipewire gstreamer1.0-tools gstreamer1.0-plugins-base)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  # A large install can fail once with "cannot access archive"; the retry succeeds.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ||
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

command -v cargo >/dev/null || { echo "setup: cargo is missing: install Rust (rustup) first" >&2; exit 1; }
node_ok=$(node -e 'const [a,b]=process.versions.node.split(".").map(Number); console.log(a>22||(a==22&&b>=12)||(a==20&&b>=19)?"yes":"no")' 2>/dev/null || echo no)
if [[ "$node_ok" != yes ]]; then
  echo "setup: Node.js 20.19+ or 22.12+ is needed to build the UI (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

# The suite checks formatting and lints first.
if $for_tests && ! { cargo fmt --version && cargo clippy --version; } >/dev/null 2>&1; then
  command -v rustup >/dev/null || { echo "setup: cargo fmt and cargo clippy are missing: install rustfmt and clippy" >&2; exit 1; }
  say "installing rustfmt and clippy"
  rustup component add rustfmt clippy
fi

if $for_tests && ! command -v tauri-driver >/dev/null; then
  say "installing tauri-driver (major 2) with cargo"
  cargo install tauri-driver --version "^2" --locked
fi

# UI: install dependencies when the lock file changed, then build into ui/dist.
if [[ ! -f ui/node_modules/.package-lock.json || ui/package-lock.json -nt ui/node_modules/.package-lock.json ]]; then
  say "installing UI dependencies"
  (cd ui && npm ci --no-audit --no-fund)
fi
say "building the UI"
(cd ui && npm run --silent build >/dev/null)

if ! $for_release; then
  say "building the app"
  cargo build --quiet
fi
