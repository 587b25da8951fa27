"""sitegen: a static site generator for open-source project websites."""

from generator.installed import version

# pyproject.toml's, as the installed distribution records it; a checkout never installed has none
__version__ = version("sitegen-oss") or "0+unknown"
