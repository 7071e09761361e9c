"""``hackwright mcp``: a Model Context Protocol server through which a coding agent (Claude
Code, Codex, any MCP client) plays NetHack under the rules and records of ``play``.

``session.py`` drives the episode loop with decisions handed in from outside and needs
nothing but Hackwright; ``server.py`` exposes it as MCP tools over stdio and needs the
official ``mcp`` SDK (the ``mcp`` extra). See docs/mcp.md.
"""

from __future__ import annotations

INSTALL_HINT = 'the MCP server needs the mcp package: pip install "hackwright[mcp]"'


def mcp_available() -> bool:
    """Whether the official MCP SDK's server (``MCPServer``, or ``FastMCP`` before 2.0) can be imported."""
    import importlib

    for name in ("mcp.server.mcpserver", "mcp.server.fastmcp"):
        try:
            importlib.import_module(name)
            return True
        except ImportError:
            continue
    return False


__all__ = ["INSTALL_HINT", "mcp_available"]
