#!/usr/bin/env bash
# A Python with the official MCP SDK (`mcp` from PyPI, pinned), for the MCP tests' real
# servers (tests/mcp/servers). Made once under ${XDG_CACHE_HOME:-~/.cache}/zeta/mcp-venv;
# prints the interpreter's path.
set -euo pipefail
venv="${XDG_CACHE_HOME:-$HOME/.cache}/zeta/mcp-venv"
version="2.3.0"
if ! "$venv/bin/python" -c "import mcp, importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$version')" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$version" >&2
fi
echo "$venv/bin/python"
