"""``sitegen tutorials run --shard I/N`` and ``tutorials status``, as a CI matrix would use them.

Each shard runs in its own copy of the site with an empty local cache (as
each CI job starts from a fresh checkout) and a shared folder as
``notebooks.cache``; a last copy builds the site. Runs are counted by a log the
tutorials' code appends to, which no cache can fake.
"""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

from generator.build import build
from generator.cli import main
from test_notebooks import NOW, REFRESH, logged, make_site, page, runs

pytest.importorskip("fsspec")

NAMES = ("alpha", "bravo", "charlie", "delta", "echo")


def tutorials(log: Path) -> dict[str, str]:
    found = {f"{name}.py": f"# %% [markdown]\n# # {name.title()}\n\n# %%\n{logged(log, name)}\nprint('{name} ran')\n"
             for name in NAMES}
    found["on_gpu.py"] = ("# ---\n# sitegen:\n#   device: cuda\n# ---\n# %% [markdown]\n# # On a GPU\n\n"
                          f"# %%\n{logged(log, 'on_gpu')}\n")
    return found


def checkout(root: Path, name: str, shared: Path, log: Path) -> Path:
    """A fresh copy of the site, as a CI job checks it out: no local cache."""
    return make_site(root / name, f"cache: {shared.as_uri()}\nworkers: 1", **tutorials(log))


def sitegen(site: Path, *args: str) -> int:
    return main(["-C", str(site), *args])


def test_shards_together_run_each_tutorial_once_and_the_build_after_runs_none(tmp_path, capsys):
    log, shared = tmp_path / "runs.log", tmp_path / "bucket"
    for index in (1, 2, 3):
        site = checkout(tmp_path, f"shard{index}", shared, log)
        assert sitegen(site, "tutorials", "run", "--device", "cpu", "--shard", f"{index}/3") == 0
    assert sorted(runs(log)) == sorted(NAMES)                         # each exactly once
    out = capsys.readouterr().out
    assert out.count("tutorials: 2 ran, 0 already cached") == 2 and "tutorials: 1 ran, 0 already cached" in out

    gpu = checkout(tmp_path, "gpu-runner", shared, log)               # this machine has no CUDA
    assert sitegen(gpu, "tutorials", "run", "--device", "cuda") == 0
    out = capsys.readouterr().out
    assert "skipped notebooks/on_gpu.py: needs device cuda, which this machine lacks" in out
    assert "tutorials: 0 ran, 0 already cached, 1 skipped" in out
    assert "on_gpu" not in runs(log)

    again = checkout(tmp_path, "again", shared, log)                  # a re-run job finds them all
    assert sitegen(again, "tutorials", "run", "--device", "cpu") == 0
    assert "tutorials: 0 ran, 5 already cached" in capsys.readouterr().out

    publish = checkout(tmp_path, "publish", shared, log)
    with open(publish / "site.yaml", "a") as f:
        f.write("  allow_unexecuted: true\n")
    result = build(publish, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached, result.reports["docs"].tutorials.unexecuted) == (0, 5, 1)
    assert sorted(runs(log)) == sorted(NAMES)                         # no kernel ran anything
    assert "charlie ran" in page(publish, "charlie")


def test_only_runs_the_named_tutorials_and_rejects_unknown_names(tmp_path, capsys):
    log = tmp_path / "runs.log"
    site = checkout(tmp_path, "site", tmp_path / "bucket", log)
    assert sitegen(site, "tutorials", "run", "--only", "bravo", "notebooks/delta.py") == 0
    assert sorted(runs(log)) == ["bravo", "delta"]
    assert sitegen(site, "tutorials", "run", "--only", "bravo", "zulu") == 1
    err = capsys.readouterr().err
    assert "error: no tutorial named zulu (tutorials: alpha, bravo, charlie, delta, echo, on_gpu)" in err
    with pytest.raises(SystemExit) as exit:
        sitegen(site, "tutorials", "run", "--shard", "0/3")
    assert exit.value.code == 2
    assert "argument --shard: expected I/N with 1 <= I <= N, got '0/3'" in capsys.readouterr().err


def test_status_says_cached_stale_or_failed_and_where_each_ran(tmp_path, capsys):
    log, shared = tmp_path / "runs.log", tmp_path / "bucket"
    runner = checkout(tmp_path, "runner", shared, log)
    (runner / "notebooks" / "echo.py").write_text("# %% [markdown]\n# # Echo\n\n# %%\n1 / 0\n")
    assert sitegen(runner, "tutorials", "run", "--only", "alpha", "bravo", "echo") == 1
    err = capsys.readouterr().err
    assert "notebooks/echo.py:" in err and "ZeroDivisionError" in err

    elsewhere = checkout(tmp_path, "elsewhere", shared, log)
    (elsewhere / "notebooks" / "echo.py").write_text((runner / "notebooks" / "echo.py").read_text())
    (elsewhere / "notebooks" / "bravo.py").write_text(tutorials(log)["bravo.py"] + "print('edited')\n")
    assert sitegen(elsewhere, "tutorials", "status") == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["notebooks/alpha.py"][1:3] == ["cached", platform.node()]
    assert rows["notebooks/alpha.py"][-1] == shared.as_uri()
    assert rows["notebooks/bravo.py"][1:] == ["stale", "-", "-", "-", "-"]
    assert rows["notebooks/echo.py"][1:6] == ["failed", "(error", "in", "code", "cell"]
    assert rows["notebooks/charlie.py"][1] == "stale"
    assert sitegen(elsewhere, "tutorials", "status") == 0       # now read through into the local cache
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["notebooks/alpha.py"][-1] == "local"


def test_a_run_wanted_where_it_cannot_happen_uses_another_machines_run_in_a_build_and_is_skipped_by_run(
        tmp_path, capsys):
    # One decision (pipeline.decide) for both commands: a fresh run is asked for (--refresh), the
    # machine lacks the tutorial's device, a run from a machine that has it is cached.
    from generator.configure import load_config
    from generator.notebooks.sources import load_tutorial
    from generator.notebooks.spec import metadata_of, resolve
    from generator.notebooks.store import Run, RunStore

    log = tmp_path / "runs.log"
    site = make_site(tmp_path / "site", "", **{"on_gpu.py": tutorials(log)["on_gpu.py"]})
    tutorial = load_tutorial(site, Path("notebooks/on_gpu.py"))
    spec = resolve(tutorial, metadata_of(tutorial), load_config(site).notebooks)
    printed = {"output_type": "stream", "name": "stdout", "text": "ran on the GPU\n"}
    cells = [{"execution_count": n, "outputs": [printed]} for n in range(1, len(spec.code) + 1)]
    RunStore(site / ".sitegen/cache").put(Run(spec.key, "gpu-builder-7", "2025-11-02T10:00:00+00:00", 3.5,
                                              "python3", {"name": "python"}, cells))

    assert sitegen(site, "tutorials", "run") == 0                    # the cached run will do
    assert "tutorials: 0 ran, 1 already cached" in capsys.readouterr().out
    assert sitegen(site, "tutorials", "run", "--refresh") == 0       # wanted again, cannot run here
    out = capsys.readouterr().out
    assert "skipped notebooks/on_gpu.py: needs device cuda, which this machine lacks" in out
    assert "tutorials: 0 ran, 0 already cached, 1 skipped" in out

    result = build(site, REFRESH)                                     # the build shows the cached run
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 1)
    html = page(site, "on_gpu")
    assert "Outputs from another machine" in html and "ran on the GPU" in html
    assert runs(log) == []
