"""pinup_feedback: the feedback endpoint (Starlette). Never imports `pinup`."""

__version__ = "0.1.0"
