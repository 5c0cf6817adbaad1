"""toolkit.exercises.seal: a record check() sealed in a graded run verifies with the run's key, and nothing else does."""

import pytest

from toolkit.exercises import seal


@pytest.fixture
def armed(monkeypatch):
    monkeypatch.setattr(seal, "_sealer", None)  # put back as it was (unarmed) after the test
    seal.arm("the run's key")


def record(**changed):
    fields = {"exercise": "w0.switch", "status": "passed", "passed": True, "feedback": "well done"}
    return {**fields, **changed}


def sealed(**changed):
    """The record as check() seals it (`seal.seal` gives a seal to check() alone)."""
    r = record(**changed)
    return {**r, "seal": seal._sealer(seal._text(r["exercise"], r["status"], r["passed"], r["feedback"]))}


def test_an_unarmed_kernel_seals_nothing():
    assert (seal.armed(), seal.seal("w0.switch", "passed", True, "")) == (False, "")


def test_a_sealed_record_verifies_with_its_runs_key_only(armed):
    assert seal.verify(sealed(), "the run's key")
    assert not seal.verify(sealed(), "another run's key")


@pytest.mark.parametrize(
    "edit",
    [{"status": "failed"}, {"passed": False}, {"exercise": "w1.records"}, {"feedback": "edited"}, {"seal": 3}],
)
def test_a_record_edited_after_it_was_sealed_does_not_verify(armed, edit):
    """A verdict or feedback changed, a seal moved to another exercise's record, a seal that is no text: none is
    the record check() made."""
    assert not seal.verify({**sealed(), **edit}, "the run's key")


def test_a_record_without_a_seal_does_not_verify(armed):
    assert not seal.verify(record(), "the run's key")


def test_a_cell_that_calls_the_sealing_itself_gets_no_seal(armed):
    """Before: `seal.seal("w0.switch", "passed", True, "")` (or `core._sealed(CheckResult(...), ex)`) called from a
    cell sealed a pass of its own; now only `core._sealed` called by `core.check` gets one."""
    from toolkit.exercises import core

    made = core._sealed(core.CheckResult("w0.switch", "passed", ""), core.get("w0.switch"))
    assert (seal.seal("w0.switch", "passed", True, ""), made.seal) == ("", "")
