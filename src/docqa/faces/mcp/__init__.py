"""The MCP server: the engine's search, pages, verified answers and evidence images, for AI agents.

One Engine is opened per server process and serves every call (and, over HTTP, every session).
The face holds no logic: each tool validates nothing the engine does not, calls the Engine and
shapes its result for a calling model. Errors an agent can act on (an unknown document, a page
out of range, a bad argument) come back as tool errors that say what to do; ``found=false`` from
``ask`` is a normal result.

``server`` builds the server and registers the tools, each a function in the module of what it
does (``tools_documents``, ``tools_search``, ``tools_pages``, ``tools_ask``, ``tools_evidence``);
``registry`` is how a tool is put on the server, ``replies`` the typed results, ``errors`` the
errors an agent reads, ``transport`` stdio and Streamable HTTP.
"""

from docqa.faces.mcp.server import build_server, page_uri
from docqa.faces.mcp.transport import BearerAuth, http_app, run_mcp

__all__ = ["BearerAuth", "build_server", "http_app", "page_uri", "run_mcp"]
