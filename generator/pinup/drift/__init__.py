"""`pinup drift`: hard-coded colours, sizes and fonts in a codebase, checked against its DESIGN.md tokens.

`scan` finds literals in a file's text, `tokens` indexes the design's tokens under the names pinup's
exports give them, `match` pairs the two, `files` walks and reads the paths, `baseline` remembers
accepted drift, `report` writes text, JSON or SARIF, and `run` ties them together.
"""
