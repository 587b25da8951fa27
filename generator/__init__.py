"""sitegen: a static site generator for open-source project websites."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("sitegen")     # pyproject.toml's, as the installed distribution records it
except PackageNotFoundError:             # run from a checkout that was never installed
    __version__ = "0+unknown"
