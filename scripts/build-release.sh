#!/usr/bin/env bash
# Builds what people install: the UI, the release binary with the UI embedded (the
# release profile in Cargo.toml), and the .deb and .rpm, with Tauri's bundler (the CLI from
# ui/node_modules; offline). Prints the packages' paths. 10 to 20 minutes cold on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --release
rm -rf target/release/bundle/deb target/release/bundle/rpm
ui/node_modules/.bin/tauri build --bundles deb,rpm --ci >&2
ls target/release/bundle/deb/*.deb target/release/bundle/rpm/*.rpm
