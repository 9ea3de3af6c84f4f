#!/usr/bin/env bash
# Builds llama.cpp's own `llama-server` once, from the llama.cpp sources vendored in the
# llama-cpp-python sdist on PyPI (the one registry reachable here that carries them),
# with this CPU's native flags, into ${XDG_CACHE_HOME:-~/.cache}/zeta/llama-server/.
# Zeta prefers it to llama-cpp-python. Usage: scripts/llama-server.sh
set -euo pipefail
version="0.3.36"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/zeta"
dest="$cache/llama-server"
say() { printf '\033[1m[llama-server]\033[0m %s\n' "$*" >&2; }
if [[ -x "$dest/llama-server" ]]; then say "ready: $dest/llama-server"; exit 0; fi
command -v cmake >/dev/null || { echo "llama-server: cmake is missing (scripts/setup.sh installs it)" >&2; exit 1; }
work="$cache/llama-server.building"
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
say "fetching llama.cpp's sources (llama-cpp-python $version sdist from PyPI)"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary llama-cpp-python \
  "llama-cpp-python==$version" -d "$work"
tar xzf "$work"/llama_cpp_python-"$version".tar.gz -C "$work"
src="$work/llama_cpp_python-$version/vendor/llama.cpp"
say "building llama-server with native CPU flags ($(nproc) cores)"
start=$(date +%s)
log="$cache/llama-server-build.log"
# Native flags without AMX: where a virtual machine shows AMX but does not grant it, the AMX
# kernels crash at the first matrix product (seen: SIGSEGV in ggml_backend_amx_mul_mat on a
# Xeon with amx_int8). AVX-512 and VNNI stay.
noamx="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
if ! { cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON \
         -DCMAKE_C_FLAGS="$noamx" -DCMAKE_CXX_FLAGS="$noamx" \
         -DLLAMA_CURL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF \
         -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON &&
       cmake --build "$work/build" --target llama-server -j "$(nproc)"; } >"$log" 2>&1; then
  echo "llama-server: the build failed; the end of $log:" >&2
  tail -n 15 "$log" >&2
  exit 1
fi
mkdir -p "$dest.new"
cp "$work/build/bin/llama-server" "$dest.new/"
rm -rf "$dest"; mv "$dest.new" "$dest"
say "built in $(( $(date +%s) - start )) s: $dest/llama-server ($(du -h "$dest/llama-server" | cut -f1))"
