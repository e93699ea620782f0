"""pinup: DESIGN.md toolkit, design-system sites and review boards."""

__version__ = "0.1.0"
