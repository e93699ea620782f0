"""DESIGN.md toolkit: parse, build the model, lint, export and diff.

Public entry points (implemented in one module per job):

- `pinup.designmd.lint.lint_text(text, *, extended=False) -> LintReport`
- `pinup.designmd.lint.lint_path(path, *, extended=False) -> LintReport`
- `pinup.designmd.model`: the pydantic model every consumer reads.
"""
