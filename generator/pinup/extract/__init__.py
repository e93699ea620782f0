"""`pinup extract`: a DESIGN.md draft from a rendered page.

`sample` renders the page in headless Chromium and reads every visible element's computed style;
`infer` turns those samples into tokens (colours by role and frequency, the type scale, spacing,
radii, shadows); `draft` writes them as a DESIGN.md: front matter plus `##` sections that say what
was inferred and from what.
"""
