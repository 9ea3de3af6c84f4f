#!/usr/bin/env bash
# Builds what people install: the UI, the release binary with the UI embedded (the
# release profile in Cargo.toml), and the .deb and .rpm, with Tauri's bundler (the CLI from
# ui/node_modules; offline), with the skills' model. Prints the packages' paths. 10 to 20 minutes cold on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --release
# The model that chooses skills by meaning goes in the packages
# (/usr/share/zeta/models/all-MiniLM-L6-v2-int8, tauri.conf.json's bundle files).
model="$(scripts/skills-model.sh)"
mkdir -p target/skills-model
cp "$model/model.onnx" "$model/tokenizer.json" target/skills-model/
rm -rf target/release/bundle/deb target/release/bundle/rpm
ui/node_modules/.bin/tauri build --bundles deb,rpm --ci >&2
ls target/release/bundle/deb/*.deb target/release/bundle/rpm/*.rpm
