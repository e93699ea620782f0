"""`pinup serve`: the local composition of the built site, the feedback app and uvicorn."""
