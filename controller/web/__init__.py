"""The live web view: a local page that follows the session and has its buttons, and its
calibrate view, where the field's corners are dragged into place (also served alone).

    server = serve(live)            # http://127.0.0.1:8000/ in a background thread
    ...
    server.stop()
    server = serve(None, desk=desk)  # http://127.0.0.1:8000/calibrate: the calibrate view alone
"""

from .app import create_app, page_state
from .server import Server, serve

__all__ = ["Server", "create_app", "page_state", "serve"]
