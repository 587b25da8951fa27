"""Caches hold data, never code, and a damaged entry is a miss (issue 15.3).

``.sitegen/`` is restored by CI and copied between machines: a crafted file
there must not run anything, and one garbled file must not break builds.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import random
import re
import shutil
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from generator import codec
from generator.build import build
from generator.cache import local_key
from generator.cli import main
from generator.markdown import Heading
from generator.site import Document
from generator.docs.versions import LastBuilds
from generator.links import Linked

from conftest import copy_site


class Payload:
    """A pickle that runs a command when it is loaded."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


KEY = bytes(range(32))     # a checkout's key, for values packed outside a site


def sealed(kind: str, body: bytes) -> bytes:
    """A cache file of ``body`` as a checkout with :data:`KEY` would seal it: a crafted file
    that passes the seal, for the checks after it."""
    header = codec._header(kind)
    return header + codec._seal(KEY, header, body).digest() + body


def output_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site", "basic")


def test_crafted_cache_files_run_nothing(site: Path, tmp_path: Path) -> None:
    build(site)
    expected = output_files(site / "_site")
    marker = tmp_path / "ran"
    crafted = pickle.dumps(Payload(marker))
    state_dir = site / ".sitegen"
    entries = [p for p in (state_dir / "cache/documents").rglob("*") if p.is_file()]
    assert entries
    for path in [state_dir / "state.pickle", state_dir / "state.msgpack", *entries,
                 *(p.with_suffix(".pickle") for p in entries)]:
        path.write_bytes(crafted)
    (site / "content/pages/about.md").touch()       # a build that reads state and caches
    assert main(["-C", str(site), "build"]) == 0
    assert not marker.exists()
    assert output_files(site / "_site") == expected


@pytest.mark.parametrize("garble", ["truncated", "random", "pickle-protocol-9", "empty", "flipped-byte"])
def test_a_garbled_document_cache_entry_is_a_miss(site: Path, garble: str) -> None:
    build(site)
    expected = output_files(site / "_site")
    rng = random.Random(garble)
    entries = sorted(p for p in (site / ".sitegen/cache/documents").rglob("*") if p.is_file())
    for path in entries:
        data = path.read_bytes()
        path.write_bytes({"truncated": data[: len(data) // 2],
                          "random": bytes(rng.randrange(256) for _ in range(200)),
                          "pickle-protocol-9": b"\x80\x09" + data[2:],
                          "empty": b"",
                          "flipped-byte": data[:-5] + bytes([data[-5] ^ 1]) + data[-4:]}[garble])
    for state in (site / ".sitegen").glob("state*"):
        state.unlink()                                # so that every document is looked up
    assert main(["-C", str(site), "build"]) == 0
    assert output_files(site / "_site") == expected
    assert main(["-C", str(site), "build"]) == 0


def test_a_garbled_state_is_a_full_build(site: Path) -> None:
    build(site)
    expected = output_files(site / "_site")
    for state in (site / ".sitegen").glob("state*"):
        state.write_bytes(state.read_bytes()[:100])
    (site / "_site/about.html").unlink()
    assert main(["-C", str(site), "build"]) == 0
    assert output_files(site / "_site") == expected


def test_documents_and_values_round_trip_as_data() -> None:
    doc = Document(source=Path("content/posts/2020-01-01-a.md"), kind="post", url="/a.html", title="A",
                   layout="post", content="<p>a</p>", toc=(Heading(2, "x", "X"),),
                   date=datetime(2020, 1, 1, 10, tzinfo=ZoneInfo("Europe/Berlin")),
                   tags=["t"], meta={"when": date(2020, 1, 2), "at": datetime(2020, 1, 1, tzinfo=timezone(timedelta(hours=-7))),
                                     "set": {1, 2}, "big": 2 ** 80, "bytes": b"\0", 3: None})
    back = codec.loads("document", codec.dumps("document", doc, KEY), KEY)
    assert back == doc and back.toc[0] == Heading(2, "x", "X") and back.date.tzinfo == ZoneInfo("Europe/Berlin")
    key = ("seq", ("posts",), "slice", 0, 5, None)
    value = {key: frozenset({("a", 1)}), "list": [1, (2, 3)]}
    assert codec.loads("state", codec.dumps("state", value, KEY), KEY) == value


def test_nested_values_pack_to_the_bytes_packb_gives(monkeypatch) -> None:
    """A tuple's or record's packer starts with a small buffer (codec.NESTED_BUFFER): the same
    bytes as msgpack.packb's packer gives, nested values longer than the buffer too."""
    long = "é" * (3 * codec.NESTED_BUFFER)
    doc = Document(source=Path("content/posts/2020-01-01-a.md"), kind="post", url="/a.html", title="A",
                   layout="post", content="<p>a</p>" * 500, toc=(Heading(2, "x", long), Heading(3, "y", "Y")),
                   date=datetime(2020, 1, 1, 10, tzinfo=ZoneInfo("Europe/Berlin")), tags=["t", long],
                   meta={"nested": ((1, (2, (long, date(2020, 1, 2)))), frozenset({("a", 1)})), "big": 2 ** 80})
    values = [("document", doc), ("state", {("seq", ("posts",), "slice", 0, 5, None): [(long,) * 3, {1, 2}]})]
    made = [codec.dumps(kind, value, KEY) for kind, value in values]
    monkeypatch.setattr(codec, "_pack", lambda value: codec.msgpack.packb(value, default=codec._encode,
                                                                         strict_types=True, use_bin_type=True))
    assert made == [codec.dumps(kind, value, KEY) for kind, value in values]


def test_datetimes_of_every_kind_of_zone_round_trip_and_an_earlier_layout_still_reads() -> None:
    times = [datetime(2020, 1, 2, 3, 4, 5, 6), datetime(2020, 7, 1, 9, tzinfo=ZoneInfo("America/Los_Angeles")),
             datetime(2020, 1, 2, tzinfo=timezone(timedelta(hours=-7))), datetime(2020, 1, 2, tzinfo=timezone.utc),
             datetime(2020, 1, 2, tzinfo=timezone(timedelta(seconds=5400, microseconds=500)))]
    back = codec.loads("state", codec.dumps("state", times, KEY), KEY)
    assert [(t, repr(t.tzinfo)) for t in back] == [(t, repr(t.tzinfo)) for t in times]
    for when in times:        # as sitegen wrote them before the flat layout: [naive ISO text, zone]
        zone = codec._zone(when.tzinfo)
        earlier = codec.msgpack.packb(codec.msgpack.ExtType(4, codec._pack([when.replace(tzinfo=None).isoformat(), zone])))
        assert codec._unpack(earlier) == when and repr(codec._unpack(earlier).tzinfo) == repr(when.tzinfo)
    for crafted in (b"x\0Nowhere/Land", b"2020-01-02T00:00:00\0nan", b"2020-01-02T00:00:00\0No/Such_Zone"):
        body = codec.msgpack.packb([codec.msgpack.ExtType(4, crafted)])
        with pytest.raises(codec.Garbled):
            codec.loads("state", sealed("state", body), KEY)


def test_a_file_packed_item_by_item_is_the_file_dumps_makes(tmp_path: Path) -> None:
    """The records file is written by codec.dump, its long tables packed as they are made:
    the same bytes as codec.dumps of the whole value, read back by codec.loads."""
    rows = [[0, "title"], ("seq", ("posts",)), None, {"a": datetime(2020, 1, 1)}] * 3000
    pairs = {f"page{i}.html": [i, [1, 2], "d"] for i in range(5000)}
    plain = {"generation": "g", "keys": rows, "outputs": pairs, "empty": []}
    streamed = {"generation": "g", "keys": codec.Items(len(rows), iter(rows)),
                "outputs": codec.Items(len(pairs), iter(pairs.items()), pairs=True), "empty": codec.Items(0, iter(()))}
    with open(tmp_path / "records", "wb") as file:
        codec.dump("records", streamed, file, KEY)
    data = (tmp_path / "records").read_bytes()
    assert data == codec.dumps("records", plain, KEY)
    assert codec.loads("records", data, KEY) == plain
    with open(tmp_path / "short", "wb") as file, pytest.raises(ValueError, match="keys: 2 items where 3"):
        codec.dump("records", {"keys": codec.Items(3, iter([1, 2]))}, file, KEY)


@pytest.mark.parametrize("data", [b"", b"sitegen document 4\n", pickle.dumps({"a": 1}),
                                  codec.dumps("state", {"a": 1}, KEY), codec.dumps("document", {"a": 1}, bytes(32))])
def test_foreign_bytes_are_garbled(data: bytes) -> None:
    with pytest.raises(codec.Garbled):
        codec.loads("document", data, KEY)


def test_an_unknown_record_name_is_garbled_not_imported() -> None:
    import msgpack
    body = msgpack.packb(msgpack.ExtType(7, msgpack.packb(["os.system", {"command": "true"}])))
    with pytest.raises(codec.Garbled):
        codec.loads("document", sealed("document", body), KEY)


def test_a_version_slot_that_is_not_ours_is_a_miss(tmp_path: Path) -> None:
    slots = LastBuilds(tmp_path, KEY)
    linked = [Linked("content/docs/index.md", "/docs/v1/", ((3, "link", "/x.html", "/x.html", ""),), ())]
    slots.put("v1", "key", ["title"], {"index.html": b"<p>"}, linked)
    assert slots.get("v1", lambda settings: "key") == ({"index.html": b"<p>"}, linked, ["title"])
    assert slots.get("v1", lambda settings: "other") is None
    assert LastBuilds(tmp_path, bytes(32)).get("v1", lambda settings: "key") is None      # another checkout's key
    for path in tmp_path.iterdir():
        path.write_bytes(pickle.dumps(Payload(tmp_path / "ran")))
    assert slots.get("v1", lambda settings: "key") is None
    assert not (tmp_path / "ran").exists()


def test_a_crafted_entry_of_the_right_format_but_wrong_types_is_a_miss(site: Path) -> None:
    build(site)
    expected = output_files(site / "_site")
    key = local_key(site / ".sitegen")      # entries sealed as this checkout's, of the wrong types
    for path in (site / ".sitegen/cache/documents").rglob("*.msgpack"):
        doc = codec.loads("document", path.read_bytes(), key)
        doc.url, doc.tags = 5, [None]
        path.write_bytes(codec.dumps("document", doc, key))
    for state in (site / ".sitegen").glob("state*"):
        state.unlink()
    assert main(["-C", str(site), "build"]) == 0
    assert output_files(site / "_site") == expected


@pytest.mark.parametrize("data", [b'"a string"', b"12", b"[]", b"{}", b'{"failure": null}', b"\xff\xfe", b"nul\0"])
def test_a_garbled_notebook_run_is_a_miss(tmp_path: Path, data: bytes) -> None:
    from generator.notebooks.store import RunStore
    store = RunStore(tmp_path)
    key = "ab" + "0" * 62
    store.path(key).parent.mkdir(parents=True)
    store.path(key).write_bytes(data)
    assert store.get(key) is None


def test_every_yaml_value_in_front_matter_survives_the_cache(site: Path) -> None:
    (site / "content/pages/types.md").write_text(
        "---\ntitle: Types\nwhen: 2020-01-02\nat: 2020-01-02 03:04:05.678 -07:00\nbig: 123456789012345678901234567890\n"
        "nan: .nan\nset: !!set {a, b}\nraw: !!binary aGVsbG8=\npairs: !!omap [{a: 1}, {b: 2}]\n"
        "nested: {1: [null, true, 1.5], x: {y: []}}\n---\n{{ page.title }}\n")
    build(site)
    entries = {p: p.read_bytes() for p in (site / ".sitegen/cache/documents").rglob("*.msgpack")}
    expected = output_files(site / "_site")
    for state in (site / ".sitegen").glob("state*"):
        state.unlink()
    build(site)     # every document from the cache
    assert output_files(site / "_site") == expected
    assert {p: p.read_bytes() for p in (site / ".sitegen/cache/documents").rglob("*.msgpack")} == entries


def test_a_value_a_cache_cannot_hold_is_not_cached(tmp_path: Path) -> None:
    from generator.cache import DataCache
    cache = DataCache(tmp_path, "document", KEY)
    cache.put("ab" * 32, object())
    assert cache.get("ab" * 32) is None and not any(tmp_path.rglob("*.msgpack"))


def test_a_ci_build_with_the_caches_restored_parses_nothing_and_runs_no_kernel(tmp_path, capsys,
                                                                            monkeypatch):
    """What the publish workflow does: a fresh checkout of the shipped site, with only the
    ``.sitegen/cache`` an earlier build left restored, builds what that build made, byte for byte,
    from the caches alone (its entries sealed with the key both builds have from a CI secret)."""
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "the repository's secret")
    first = copy_site(tmp_path / "first")
    assert main(["-C", str(first), "build"]) == 0
    log = capsys.readouterr().out
    # Docs versions share pages and tutorials: the second takes them from what the first cached.
    parsed = re.search(r"^(\d+) documents parsed, (\d+) from cache$", log, re.M)
    ran = re.search(r"^(\d+) notebooks ran, (\d+) from cache", log, re.M)
    assert parsed and int(parsed.group(1)) > 20 and ran and int(ran.group(1)) > 0, log
    documents, runs = (sum(map(int, found.groups())) for found in (parsed, ran))

    ci = copy_site(tmp_path / "ci")
    shutil.copytree(first / ".sitegen" / "cache", ci / ".sitegen" / "cache")
    assert main(["-C", str(ci), "build"]) == 0
    log = capsys.readouterr().out
    assert f"\n0 documents parsed, {documents} from cache\n" in log, log
    assert f"\n0 notebooks ran, {runs} from cache" in log, log
    assert output_files(ci / "_site") == output_files(first / "_site")


def test_a_digest_begun_once_and_finished_many_times_is_the_digest_of_all_its_parts():
    from generator.cache import digest, digest_after, hasher

    begun = hasher("settings", b"\x00bytes")
    assert digest_after(begun, "post", "a.md") == digest("settings", b"\x00bytes", "post", "a.md")
    assert digest_after(begun, "post", "b.md") == digest("settings", b"\x00bytes", "post", "b.md")  # begun is left as it was
    assert digest_after(begun, "posta.md") != digest_after(begun, "post", "a.md")   # parts never run together


def forged(kind: str, value: object) -> bytes:
    """A cache file as codec's docstring describes the layout: a header, a SHA-256 of the body,
    the body. All a crafted file can know: the checkout's own key is not in it."""
    import msgpack

    body = msgpack.packb(value, use_bin_type=True)
    return f"sitegen {kind} {codec.VERSIONS[kind]}\n".encode() + hashlib.sha256(body).digest() + body


def test_a_crafted_parse_of_site_yaml_does_not_replace_its_settings(site: Path, tmp_path: Path) -> None:
    """Issue 39.4: a site-yaml.msgpack with a valid header and digest replaced site.yaml's
    settings: another title, and an output folder outside the site, whose files went."""
    import yaml

    outside = tmp_path / "outside"
    outside.mkdir()
    canary = outside / "canary.txt"
    canary.write_text("not the site's")
    assert main(["-C", str(site), "build"]) == 0
    kept = site / ".sitegen/site-yaml.msgpack"
    assert kept.exists()
    text = (site / "site.yaml").read_text()
    settings = {**yaml.safe_load(text), "title": "Forged Title", "output": "../outside"}
    kept.write_bytes(forged("site-yaml", {"text": hashlib.sha256(text.encode()).hexdigest(), "value": settings}))
    (site / "content/pages/about.md").write_text("---\ntitle: About\n---\nAbout this site, edited.\n")

    assert main(["-C", str(site), "build"]) == 0
    assert canary.read_text() == "not the site's" and [p.name for p in outside.iterdir()] == ["canary.txt"]
    about = (site / "_site/about.html").read_text()
    assert "edited" in about and "Test Site" in about and "Forged" not in about


def test_a_document_cache_entry_made_in_another_checkout_is_a_miss(site: Path, tmp_path: Path) -> None:
    """Issue 39.4: a crafted entry, filed under the key of a page's source, published a script
    that no source holds. Here the entry is a real one, made in another checkout from a page
    holding the script, and copied under the key of this checkout's page."""
    other = copy_site(tmp_path / "other", "basic")
    (other / "content/pages/about.md").write_text("---\ntitle: About\n---\nAbout this site.\n\n"
                                                  "<script>alert('forged')</script>\n")
    for folder in (site, other):
        assert main(["-C", str(folder), "build"]) == 0
    assert "alert('forged')" in (other / "_site/about.html").read_text()

    def entries(folder: Path) -> dict[str, Path]:
        return {p.name: p for p in (folder / ".sitegen/cache/documents").rglob("*.msgpack")}

    [ours] = entries(site).keys() - entries(other).keys()          # about.md's, the one source that differs
    [theirs] = entries(other).keys() - entries(site).keys()
    entries(site)[ours].write_bytes(entries(other)[theirs].read_bytes())
    (site / ".sitegen/state.msgpack").unlink()                     # a build that takes every page from the cache
    shutil.rmtree(site / "_site")

    assert main(["-C", str(site), "build"]) == 0
    about = (site / "_site/about.html").read_text()
    assert "About this site." in about and "forged" not in about


def test_a_data_cache_entry_made_in_another_checkout_is_a_miss(site: Path, tmp_path: Path) -> None:
    """The same for a data file's kept parse: the page's template shows the data file's values."""
    other = copy_site(tmp_path / "other", "basic")
    (other / "content/data/team.yml").write_text("members: [\"<script>alert('forged')</script>\"]\n")
    for folder in (site, other):
        (folder / "templates/team.html").write_text("Team: {{ site.data.team.members | join(', ') | safe }}\n")
        (folder / "content/pages/about.md").write_text("---\ntitle: About\nlayout: team\n---\nAbout.\n")
        assert main(["-C", str(folder), "build"]) == 0
    assert "alert('forged')" in (other / "_site/about.html").read_text()

    def entries(folder: Path) -> dict[str, Path]:
        return {p.name: p for p in (folder / ".sitegen/cache/data").rglob("*.msgpack")}

    [ours] = entries(site).keys() - entries(other).keys()
    [theirs] = entries(other).keys() - entries(site).keys()
    entries(site)[ours].write_bytes(entries(other)[theirs].read_bytes())
    for state in (site / ".sitegen").glob("state*"):
        state.unlink()
    shutil.rmtree(site / ".sitegen/cache/documents")
    shutil.rmtree(site / "_site")

    assert main(["-C", str(site), "build"]) == 0
    page = (site / "_site/about.html").read_text()
    assert "Team: Ada, Grace" in page and "forged" not in page


def test_the_key_is_the_checkouts_own_and_never_read_through_a_link(site: Path, tmp_path: Path) -> None:
    """``.sitegen/key`` is made on first use, readable by its owner only. One planted as a link
    to a file whose bytes are known (and a parse of site.yaml sealed with them) is neither read
    nor written through: the build stops naming it (as for any link in ``.sitegen/``), and once
    the link is gone the crafted parse is a miss."""
    import hmac
    import stat
    import msgpack
    import yaml

    assert main(["-C", str(site), "build"]) == 0
    key = site / ".sitegen/key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    known = tmp_path / "known"
    known.write_bytes(bytes(range(32)))
    key.unlink()
    key.symlink_to(known)
    text = (site / "site.yaml").read_text()
    body = msgpack.packb({"text": hashlib.sha256(text.encode()).hexdigest(),
                          "value": {**yaml.safe_load(text), "title": "Forged Title"}})
    header = f"sitegen site-yaml {codec.VERSIONS['site-yaml']}\n".encode()
    (site / ".sitegen/site-yaml.msgpack").write_bytes(
        header + hmac.new(known.read_bytes(), header + body, "sha256").digest() + body)
    (site / "content/pages/about.md").write_text("---\ntitle: About\n---\nAbout this site, edited.\n")

    assert main(["-C", str(site), "build"]) == 1
    assert "Forged" not in (site / "_site/about.html").read_text()
    assert known.read_bytes() == bytes(range(32))
    key.unlink()
    assert main(["-C", str(site), "build"]) == 0
    about = (site / "_site/about.html").read_text()
    assert "edited" in about and "Test Site" in about and "Forged" not in about
    assert known.read_bytes() == bytes(range(32))
    assert not key.is_symlink() and stat.S_IMODE(key.stat().st_mode) == 0o600 and key.read_bytes() != known.read_bytes()


def test_a_key_is_kept_in_the_sitegen_folder_only_and_one_in_the_environment_is_everyones(tmp_path, monkeypatch):
    from generator.cache import local_key

    nowhere = tmp_path / "no site" / ".sitegen"
    assert local_key(nowhere) != local_key(nowhere) and not nowhere.parent.exists()   # nothing trusted
    here = tmp_path / ".sitegen"
    here.mkdir()
    (here / "key").write_bytes(b"short")                # not a key: replaced
    kept = local_key(here)
    assert len(kept) == 32 and (here / "key").read_bytes() == kept and local_key(here) == kept
    assert [p.name for p in here.iterdir()] == ["key"]  # no temporary file left
    monkeypatch.setenv("SITEGEN_CACHE_KEY", "the repository's secret")
    assert local_key(here) == local_key(nowhere) != kept
