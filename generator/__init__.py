"""sitegen: a static site generator for open-source project websites."""

__version__ = "0.1.0"
