"""The live web view: a local page that follows the session and has its buttons.

    server = serve(live)            # http://127.0.0.1:8000/ in a background thread
    ...
    server.stop()
"""

from .app import create_app, page_state
from .server import Server, serve

__all__ = ["Server", "create_app", "page_state", "serve"]
