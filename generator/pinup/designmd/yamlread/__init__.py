"""YAML read the way the reference's `yaml` library (2.8.3) reads it, by the same pipeline:
lexer -> parser (CST) -> composer (errors, nodes) -> values. `read.load_block` is the entry."""
