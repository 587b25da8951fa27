"""The scan stage: the configuration, and which inputs and outputs changed since the last build."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from generator import parallel
from generator.cache import digest
from generator.config import Config
from generator.configure import load_config
from generator.engine.documents import code_digest
from generator.engine.planning import STRUCTURE
from generator.engine.values import Scan
from generator.layout import INPUTS
from generator.output import check_outputs, moved_outputs, safe_output_dir
from generator.placement import timezone_of
from generator.sources import refuse_links_outside
from generator.stamps import FileIndex

if TYPE_CHECKING:
    from generator.engine.core import Engine

# A source's stat costs a scan about this many of an output's (its folder's listing, its columns):
# at 100,000 posts, 0.45-0.56 s of CPU for 100,038 sources against 0.83-0.84 s for 266,034 outputs.
SOURCE_COST = 1.6


def scan(engine: Engine, now: datetime | None, changed: Iterable[str] | None, warm: bool,
         output: bool = True) -> Scan:
    """Read the config; find which inputs changed, and (``output``) whether the output folder
    is as the last build left it."""
    config = load_config(engine.root)
    out_dir = safe_output_dir(config)
    warm = warm and out_dir.is_dir()   # deleted under a running preview: check every output
    world = digest(*(repr(getattr(config, name)) for name in STRUCTURE),
                   repr((engine.options.drafts, engine.options.future)), code_digest())
    fresh = engine.options.refresh or bool(engine.options.rerun) or world != engine.state.world
    if fresh:                       # structure or code changed, or a rerun: nothing recorded applies
        engine.forget()
    state = engine.state
    hint = changed if warm and not fresh else None
    if output and (fresh or not warm):
        # Every output is looked at while the inputs are: two stats of ten thousand files, two cores.
        # This process takes the last outputs too, as many as even the two out (SOURCE_COST).
        worth = parallel.worth_background(len(state.stamps))
        upto = min(len(state.stamps), int(len(state.stamps) + SOURCE_COST * len(state.files)) // 2) if worth else None
        with parallel.Background(check_outputs, out_dir, state.stamps, state.folders, upto, worth=worth) as checked:
            index, changed, external = scan_inputs(engine, config, hint)
            rest = moved_outputs(out_dir, state.stamps, upto) if upto is not None else set()
            tampered, strays, empty = checked.result()
            tampered |= rest
    else:
        index, changed, external = scan_inputs(engine, config, hint)
        tampered, strays, empty = set(), set(), []
    now = now or engine.options.now or datetime.now(timezone_of(config))
    due = ((state.horizon is not None and now >= state.horizon)
           or (state.floor is not None and now < state.floor))
    return Scan(config, out_dir, world, fresh, index, changed, external, tampered, strays, empty, now, due)


def scan_inputs(engine: Engine, config: Config, hint: Iterable[str] | None) -> tuple[FileIndex, set[str], tuple]:
    """The inputs' index, the inputs that changed (among ``hint``, the files a watcher saw
    change, if given), and what each planner depends on outside the files."""
    watched = tuple(path for planner in engine.planners for path in planner.watches(config))
    inputs = INPUTS + config.static_paths + config.theme_paths    # a planner's watched paths may lie anywhere
    published = inputs + tuple(v.archive for v in config.versions if v.archive)   # but not a docs archive

    def admit(name: str) -> None:
        """Refuse a file that a link brings in from outside, before its bytes are read."""
        if any(name == r or name.startswith(r + "/") for r in published):
            refuse_links_outside(engine.root, (name,), config.allow_symlinks_outside)

    index = FileIndex(engine.root, inputs + watched, engine.state.files, set(engine.state.extra), admit)
    changed = index.rescan(hint)
    return index, changed, tuple((p.name, p.external(config)) for p in engine.planners)
