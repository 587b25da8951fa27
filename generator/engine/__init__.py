"""The build engine: documents parsed or taken from the cache (:mod:`.documents`), the plan
(:mod:`.planning`), the values the stages hand each other (:mod:`.values`), what a build records
for the next (:mod:`.records`), and the stages that use them (:mod:`.core`).
:mod:`generator.build` is its front."""
