"""AWS Lambda entry point: Mangum over the same Starlette app, configured from PINUP_* variables.

boto3 is imported here, once, during the Lambda init phase; the S3 client is built on first use.
"""

from __future__ import annotations

import boto3  # noqa: F401  (imported once per container, never per request)
from mangum import Mangum

from .app import create_app
from .settings import Settings

handler = Mangum(create_app(Settings.from_env()), lifespan="off")
