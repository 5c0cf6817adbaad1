"""A cassette's name replaced while a run records (a link to another file, a hard link, the given link
pointed elsewhere): nothing is written to the file swapped in; the error says so in one line."""

import os

import httpx
import pytest

from toolkit.chat.cassette import RecordingTransport
from toolkit.chat.cassette_append import append_line, cassette_head, target
from toolkit.errors import CassetteError

VICTIM = "root:x:0:0:root:/root:/bin/bash\n"


def _recording(tmp_path, name="c.jsonl"):
    inner = httpx.MockTransport(lambda request: httpx.Response(200, json={"ok": 1}))
    client = httpx.Client(transport=RecordingTransport(tmp_path / name, inner))
    client.post("http://gateway/v1/chat/completions", json={"n": 1}).read()
    return client


def _send(client):
    client.post("http://gateway/v1/chat/completions", json={"n": 2}).read()


def test_a_cassette_replaced_by_a_link_mid_run_is_not_written_through(tmp_path):
    """Before: the second exchange was appended to whatever the link named (`/etc/passwd` as root)."""
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    client = _recording(tmp_path)
    (tmp_path / "c.jsonl").unlink()
    (tmp_path / "c.jsonl").symlink_to(victim)
    with pytest.raises(CassetteError) as caught:
        _send(client)
    assert str(caught.value) == (
        f"cannot record to {tmp_path / 'c.jsonl'} (LLM_RECORD): the cassette file was replaced by a link (to "
        f"{victim}) while the run recorded; nothing was written through it: put the cassette back, or record to "
        "a new file"
    )
    assert victim.read_text() == VICTIM


def test_a_cassette_replaced_by_a_hard_link_to_another_file_is_not_written_to(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    client = _recording(tmp_path)
    (tmp_path / "c.jsonl").unlink()
    os.link(victim, tmp_path / "c.jsonl")
    with pytest.raises(CassetteError) as caught:
        _send(client)
    assert str(caught.value) == (
        f"cannot record to {tmp_path / 'c.jsonl'} (LLM_RECORD): the cassette file was replaced while the run "
        "recorded, by a file whose first line is 'root:x:0:0:root:/root:/bin/bash', not a cassette's; nothing was "
        "written to it: put the cassette back, or record to a new file"
    )
    assert victim.read_text() == VICTIM


def test_a_given_link_pointed_elsewhere_mid_run_keeps_recording_to_the_cassette_checked(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    (tmp_path / "real.jsonl").touch()
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "real.jsonl")
    client = _recording(tmp_path, "link.jsonl")
    (tmp_path / "link.jsonl").unlink()
    (tmp_path / "link.jsonl").symlink_to(victim)
    _send(client)
    assert victim.read_text() == VICTIM
    assert [line.count('"n": ') for line in (tmp_path / "real.jsonl").read_text().splitlines()] == [1, 1]


def test_a_cassette_replaced_by_another_cassette_or_an_empty_file_is_written_to(tmp_path):
    client = _recording(tmp_path)
    (tmp_path / "c.jsonl").unlink()
    (tmp_path / "c.jsonl").write_text('{"clock": {"now": "2026-01-01T00:00:00"}, "format": 1}')  # cut short
    _send(client)
    lines = (tmp_path / "c.jsonl").read_text().splitlines()
    assert len(lines) == 2 and lines[1].startswith('{"elapsed_ms"')


def test_the_pieces_judge_what_they_are_given(tmp_path):
    assert cassette_head(b"", 0) and cassette_head(b'{"clock": {}}', 14) and cassette_head(b'{"req', 5)
    assert not cassette_head(b'{"req', 50) and not cassette_head(b"notes", 6)
    assert target(tmp_path / "new.jsonl") == tmp_path / "new.jsonl"
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(CassetteError, match=r"^here: the cassette file was replaced while the run recorded, by a"):
        append_line("here", notes, "{}", set())
    assert notes.read_text() == "my notes\n"


def _folder_swapped(tmp_path, replacement):
    """A run recording to `tmp_path/rec/c.jsonl` whose folder `rec` is moved away and `replacement`
    (a link to another folder, or another folder) put at its name after the first exchange."""
    (tmp_path / "rec").mkdir()
    client = _recording(tmp_path / "rec")
    (tmp_path / "rec").rename(tmp_path / "kept")
    replacement(tmp_path / "rec")
    return client


@pytest.mark.parametrize("holds_a_cassette", [False, True], ids=["no-file", "a-cassette-there"])
def test_a_folder_above_the_cassette_swapped_for_a_link_mid_run_is_not_written_through(tmp_path, holds_a_cassette):
    """Before: only the file's own name was not followed, so the second exchange went to (or made)
    `c.jsonl` in whatever folder the link named (`/etc` as root)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if holds_a_cassette:  # a file there that starts as a cassette does would have been judged one
        (elsewhere / "c.jsonl").write_text('{"clock": {"now": "2026-01-01T00:00:00"}, "format": 1}\n')
    before = sorted((p.name, p.read_bytes()) for p in elsewhere.iterdir())
    client = _folder_swapped(tmp_path, lambda name: name.symlink_to(elsewhere))
    with pytest.raises(CassetteError) as caught:
        _send(client)
    assert str(caught.value) == (
        f"cannot record to {tmp_path / 'rec' / 'c.jsonl'} (LLM_RECORD): the cassette's folder "
        f"{str(tmp_path / 'rec')!r} was replaced (by a link or another folder) while the run recorded; nothing was "
        "written there: put the folder back, or record to a new file"
    )
    assert sorted((p.name, p.read_bytes()) for p in elsewhere.iterdir()) == before
    assert len((tmp_path / "kept" / "c.jsonl").read_text().splitlines()) == 1


def test_a_folder_above_the_cassette_swapped_for_another_folder_is_not_written_to(tmp_path):
    client = _folder_swapped(tmp_path, lambda name: name.mkdir())
    with pytest.raises(CassetteError, match=r"the cassette's folder .* was replaced \(by a link or another folder\)"):
        _send(client)
    assert list((tmp_path / "rec").iterdir()) == []


def test_a_folder_left_in_place_keeps_recording_every_line(tmp_path):
    (tmp_path / "rec").mkdir()
    client = _recording(tmp_path / "rec")
    _send(client)
    _send(client)
    assert len((tmp_path / "rec" / "c.jsonl").read_text().splitlines()) == 3
