"""AWS Lambda entry point: Mangum over the same Starlette app, configured from PINUP_* variables.

botocore is imported here, once, during the Lambda init phase; the S3 client is built on first use.
"""

from __future__ import annotations

import botocore.session  # noqa: F401  (imported once per container, never per request)
from mangum import Mangum

from .app import create_app
from .heap import freeze_startup_heap
from .settings import Settings

# Lambda hands a process one event at a time: store calls run on the loop, without a thread hop.
handler = Mangum(create_app(Settings.from_env(), inline_io=True), lifespan="off")
freeze_startup_heap()  # the init phase's objects live as long as the container: no collection walks them
