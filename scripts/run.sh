#!/usr/bin/env bash
# Installs what is missing, builds, and starts the Zeta desktop app.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec ./target/debug/zeta "$@"
