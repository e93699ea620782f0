"""botocore sessions that share one loader of botocore's data files.

Why: every new session parses the S3 service model and botocore's endpoint data (about 1 MB of
JSON) again: 186 ms of CPU per client measured here, against 25 ms with the loader shared. A
process that makes more than one client (`pinup pull` reads the records after listing them, the
MCP server reads a hosted board again on each call, a test run makes hundreds) paid that each
time. Only the loader is shared: credentials, region and configuration are still resolved by each
new session, from the environment of the moment. Clients come from botocore itself: pinup uses
none of what boto3 adds to an S3 client (its transfer helpers), so boto3 is not imported.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_loader: Any = None


def new_session() -> Any:
    """A new botocore session whose data loader (and its cache) is the process's one."""
    import botocore.loaders
    import botocore.session

    global _loader
    with _lock:
        if _loader is None:
            _loader = botocore.loaders.create_loader()
        session = botocore.session.Session()
        session.register_component("data_loader", _loader)
    return session
