"""Names vulture cannot see used: what frameworks and templates call, and documented Python API.

`make check` runs vulture over generator/ and functions/ with this file (settings in pyproject.toml's
[tool.vulture]). Add a name here only when something outside Python's own calls reaches it; say
what, on the same line. Anything else vulture reports is dead: delete it.
"""

# ruff: noqa: B018
_ = object

# Jinja2 templates (templates/docsite, templates/board) and user templates given with --templates:
# the fields of the page models and board contexts, and the link helpers
_.prose_html
_.display_style
_.display_level
_.action_style
_.action_component
_.preamble_html
_.theme_notes
_.cover
_.oklch
_.css_var
_.label_on
_.ratio_text
_.matrix
_.simulations
_.sample
_.percent
_.swatch
_.preview
_.alert
_.download
_.board_css
_.board_js
_.history_rounds
_.devices
_.print_css
_.variant_count
_.show_results

# the board page's JSON config (static/board/*.js and agents read it)
_.apiUrl
_.progressTimeoutMs
_.pollIntervalMs
_.schemaVersion
_.maxSchemaVersion
_.v2Fields

# pydantic fields: validated and serialised by pydantic, never read by name
_.model_config  # pydantic reads each model's settings from it
_.website
_.unresolved_refs
_.viewport  # a review pin's window size (pinup_feedback.schema.Pin)

# http.server: what ThreadingHTTPServer and BaseHTTPRequestHandler read or call (pinup.serve.proxy)
_.daemon_threads
_.server_version
_.protocol_version
_.log_message
_.do_POST
_.do_PUT
_.do_PATCH
_.do_DELETE
_.do_HEAD
_.do_OPTIONS

# html.parser.HTMLParser callbacks
_.handle_decl
_.handle_starttag
_.handle_startendtag
_.handle_endtag
_.handle_data

# ruamel.yaml: settings of its loaders
_.preserve_quotes

# MkDocs: plugin hooks and the attributes of its files and pages the plugin sets
_.on_config
_.on_files
_.on_page_content
_.on_nav
_.on_serve
_.dest_uri
_.previous_page
_.next_page

# module-level __getattr__ (PEP 562): Python calls it for lazily imported names
_.__getattr__

# documented Python API: docs/designmd.md, docs/exports.md, docs/feedback-api.md
_.mode_siblings
_.mode_value
_.parse_color
_.validate
_.for_app
