"""Jupyter tutorials, executed at build time, cached, rendered as pages.

``notebooks/`` holds the tutorials (``.ipynb``, or ``.py`` scripts in the
percent or sphinx-gallery format). The docs section of each tree (the working
tree, or a docs version's export) places them in its ``tutorials/`` folder:
each becomes ``<slug>.html`` with its outputs from a real run, beside its
downloads (``<slug>.ipynb``, executed, and ``<slug>.py``), plus a gallery,
``index.html``. Runs are cached by content, so a tutorial that is the same in
two versions executes once.

The modules, in the order data flows through them: ``sources`` (files to
notebooks and back), ``spec`` (declared settings, the cache key),
``environment`` (what this machine has), ``execute`` (one run in a kernel),
``executors`` (runs here or on a Dask cluster), ``store`` (runs on disk) with
``shared`` (a cache shared between machines), ``render`` (cells to HTML) with
``sanitize`` (what may run in a browser), ``formulas`` (math for KaTeX),
``anchors`` (ids on the page) and ``widgets`` (saved widget state),
``progress`` (the terminal), ``pipeline`` (load, decide, execute: the
tutorials of one tree), and ``runs`` (tutorials run into the cache without a
build, for CI). The docs section places their pages (:mod:`generator.docs`).
"""

from __future__ import annotations

from generator.layout import NOTEBOOKS

FOLDER = NOTEBOOKS
