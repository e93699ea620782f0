"""The design-system site: page models built from a linted DESIGN.md, rendered with Jinja2.

`pinup.docsite.pages.build_pages` turns a `LintReport` into documented page models
(one module per page group); `pinup.docsite.render` renders them as whole pages
(the standalone site) or as HTML fragments (the MkDocs plugin), so both outputs
share one implementation.
"""
