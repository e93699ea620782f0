"""AI variant generation: `pinup generate` and the `pinup serve --generate` hook.

One code path (`runner.run_generation`) turns a board, a brief and optionally a
feedback record into a new round of variants, sending one request at a time.
"""
