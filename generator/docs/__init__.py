"""The docs wing: the docs section of a site, once per version, with its tutorials.

The modules, in the order data flows through them: ``versions`` (which
versions site.yaml lists, where each one's tree comes from, what ties them
together), ``section`` (one tree's ``content/docs`` under a URL prefix),
``tutorials`` (the tree's tutorials, executed by :mod:`generator.notebooks`)
with ``gallery`` (their pages, downloads and index), and ``planner`` (all of
it as one bundle of the site's outputs, registered like any other planner).

Nothing outside this package names it but the registry of planners: the
engine builds docs through the planner interface (:mod:`generator.outputs`).
"""
