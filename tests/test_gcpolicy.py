"""One policy for the cyclic collector (generator/gcpolicy.py): off while a build runs and on
again after, as it was; objects frozen out of its reach only inside ``frozen``."""

from __future__ import annotations

import gc

from generator import gcpolicy


def test_paused_turns_the_collector_off_and_back_as_it_was():
    assert gc.isenabled()
    with gcpolicy.paused():
        assert not gc.isenabled()
        with gcpolicy.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()      # the inner one found it off: it leaves it off
    assert gc.isenabled()
    gc.disable()
    try:
        with gcpolicy.paused():
            pass
        assert not gc.isenabled()      # found off, left off
    finally:
        gc.enable()


def test_paused_turns_it_back_on_after_an_error():
    try:
        with gcpolicy.paused():
            raise ValueError
    except ValueError:
        pass
    assert gc.isenabled()


def test_frozen_keeps_what_exists_out_of_reach_inside_only():
    before = gc.get_freeze_count()
    with gcpolicy.frozen():
        assert gc.get_freeze_count() > before
    assert gc.get_freeze_count() == 0
