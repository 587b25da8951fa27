"""site.yaml's sections, a module for each feature that reads them: the output planners'
(feeds, search, archives, taxonomies), the docs wing's (versions, the API reference) and the
tutorials' (notebooks). Each section is a frozen dataclass with its defaults and the checks
of its values. A layer below both :mod:`generator.config`, which gathers them into
:class:`~generator.config.Config`, and the features, which read them: it imports neither,
so loading the settings loads no feature's code.
"""
