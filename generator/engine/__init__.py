"""The build engine: :mod:`.core` runs a build as its stages in order, each a module taking the
build value (:mod:`.values`): scan (:mod:`.scanning`), load (:mod:`.loading`; the documents,
parsed or taken from the cache, in :mod:`.documents`), plan (:mod:`.planning`), make, derive and
write (:mod:`.rendering`), record (:mod:`.records`). :mod:`generator.build` is its front."""
