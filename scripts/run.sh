#!/usr/bin/env bash
# Installs what is missing, builds, and starts the Zeta desktop app. When no provider is
# configured, Zeta runs a local model itself: scripts/local-model.sh obtains the model and
# the llama.cpp server once (cached; the first time takes about 10-15 minutes, mostly
# building llama.cpp) and makes `local` the provider.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
zeta=./target/debug/zeta
settings="${ZETA_HOME:-$HOME/.zeta}/settings.json"
kind=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("provider",{}).get("kind","none"))
except (OSError, ValueError): print("none")' "$settings")
if [[ "$kind" == "none" && -z "${ZETA_LLM_PROVIDER:-}" ]]; then
  echo "run: no provider configured: setting up the local model (first time: ~10-15 min)" >&2
  scripts/local-model.sh --use "$zeta" >/dev/null
fi
exec "$zeta" "$@"
