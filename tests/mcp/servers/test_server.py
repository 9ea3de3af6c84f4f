"""An MCP server for Zeta's tests, on the official Python SDK (`mcp` on PyPI).

    test_server.py stdio NOTES_DIR       the tools below, over stdin/stdout
    test_server.py http NOTES_DIR PORT   the same over streamable HTTP on 127.0.0.1:PORT
    test_server.py many NAME COUNT TOPIC DIR   COUNT tools about TOPIC, over stdio; each
                                             start adds a line to DIR/NAME.starts

Tools: read_note (read-only), write_note (writes NOTES_DIR/NAME), fail (isError),
hang (never answers; writes NOTES_DIR/hang.started first), picture (a PNG image), and
crash (the process exits mid-call).
"""

import asyncio
import base64
import os
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from mcp_types import ToolAnnotations

# A 2x2 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMAAAA0OAQGz"
    "J1kNAAAAAElFTkSuQmCC"
)


def notes_server(name: str, notes: Path) -> MCPServer:
    server = MCPServer(name)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    def read_note(name: str) -> str:
        """Read a note by its name and return its text."""
        path = notes / name
        if not path.exists():
            raise ToolError(f"no note named {name}")
        return path.read_text()

    @server.tool()
    def write_note(name: str, text: str) -> str:
        """Write a note: save the text under the name."""
        (notes / name).write_text(text)
        return f"saved {len(text)} characters to {name}"

    @server.tool()
    def fail(reason: str) -> str:
        """A tool that always fails, saying why."""
        raise ToolError(f"it failed because {reason}")

    @server.tool()
    async def hang(label: str = "") -> str:
        """A tool that never answers."""
        (notes / "hang.started").write_text(str(os.getpid()))
        await asyncio.sleep(3600)
        return "never"

    @server.tool()
    def picture() -> Image:
        """Draw a small red picture and return it as an image."""
        return Image(data=PNG, format="png")

    @server.tool()
    def crash() -> str:
        """Exit the server in the middle of the call."""
        os._exit(3)

    return server


def many_server(name: str, count: int, topic: str) -> MCPServer:
    server = MCPServer(name)
    for i in range(count):
        def tool(item: str, i=i) -> str:
            return f"{topic} {i}: {item}"

        server.add_tool(tool, name=f"{topic}_action_{i}", description=f"Action {i} on a {topic} item")
    return server


def main() -> None:
    mode = sys.argv[1]
    if mode == "many":
        # Each start leaves a line in DIR/NAME.starts, for the tests to count.
        with open(Path(sys.argv[5]) / f"{sys.argv[2]}.starts", "a") as starts:
            starts.write(f"{os.getpid()}\n")
        many_server(sys.argv[2], int(sys.argv[3]), sys.argv[4]).run("stdio")
        return
    notes = Path(sys.argv[2])
    notes.mkdir(parents=True, exist_ok=True)
    server = notes_server("notes", notes)
    if mode == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[3]))


if __name__ == "__main__":
    main()
