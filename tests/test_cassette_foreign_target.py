"""A recording is appended only to a cassette: never to another file, reached by its own name or
through a link (`/etc/passwd` for a process run as root, a shell's start-up file), nor made through
a link in another folder than the link's (`toolkit.chat.cassette.not_a_cassette`)."""

from __future__ import annotations

import httpx
import pytest

from toolkit.chat.cassette import RecordingTransport
from toolkit.chat.clock import session_today
from toolkit.errors import CassetteError

FIX = "a recording is only added to a cassette; name a new file, e.g. session.jsonl"


def record(path):
    inner = httpx.MockTransport(lambda request: httpx.Response(200, json={"ok": 1}))
    client = httpx.Client(transport=RecordingTransport(path, inner))
    client.post("http://gw/v1/chat/completions", json={"a": 1}).read()


def refused(path) -> str:
    with pytest.raises(CassetteError) as caught:
        record(path)
    return str(caught.value)


def test_a_link_to_a_file_of_something_else_is_refused_and_the_file_is_left_as_it_was(tmp_path):
    """Before: a cassette linked to /etc/passwd (run as root) or ~/.bashrc had an exchange appended to it."""
    users = tmp_path / "elsewhere" / "passwd"
    users.parent.mkdir()
    users.write_text("root:x:0:0:root:/root:/bin/bash\n")
    link = tmp_path / "session.jsonl"
    link.symlink_to(users)
    assert refused(link) == (
        f"cannot record to {link} (LLM_RECORD): it is a file of something else (the link names {users}), whose "
        f"first line is 'root:x:0:0:root:/root:/bin/bash', not a cassette's: {FIX}"
    )
    with pytest.raises(CassetteError) as caught:
        session_today(env={"LLM_RECORD": str(link)})
    assert str(caught.value) == refused(link)
    assert users.read_text() == "root:x:0:0:root:/root:/bin/bash\n"


@pytest.mark.parametrize("content", ["# notes\nbuy milk\n", "x", '{"name": "pkg", "version": "1.0"}\n', "[1, 2]\n"])
def test_a_file_of_something_else_named_itself_is_refused(tmp_path, content):
    notes = tmp_path / "notes.txt"
    notes.write_text(content)
    first = content.split("\n")[0]
    assert refused(notes) == (
        f"cannot record to {notes} (LLM_RECORD): it is a file of something else, whose first line is "
        f"{first!r}, not a cassette's: {FIX}"
    )
    assert notes.read_text() == content


def test_a_link_out_of_its_folder_to_a_file_still_to_be_made_is_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    link, target = tmp_path / "a" / "session.jsonl", tmp_path / "b" / "made.jsonl"
    link.symlink_to(target)
    assert refused(link) == (
        f"cannot record to {link} (LLM_RECORD): it is a link to {target}, a file outside the link's folder; "
        "name that file itself"
    )
    assert not target.exists()


def test_a_cassette_an_empty_file_a_cut_first_line_and_a_link_in_the_folder_are_recorded_to(tmp_path):
    cassette = tmp_path / "c.jsonl"
    record(cassette)
    record(cassette)  # a cassette already: added to
    assert len(cassette.read_text().splitlines()) == 2
    empty, cut = tmp_path / "empty.jsonl", tmp_path / "cut.jsonl"
    empty.touch()
    cut.write_text('{"elapsed_ms": 3, "format": 1, "requ')  # a run killed as it wrote its first line
    link = tmp_path / "latest.jsonl"
    link.symlink_to("later.jsonl")
    for path in (empty, cut, link):
        record(path)
    assert (tmp_path / "later.jsonl").read_text().count('"request"') == 1
    assert cut.read_text().splitlines()[0] == '{"elapsed_ms": 3, "format": 1, "requ'


def test_a_cassette_whose_first_line_is_longer_than_what_is_read_of_it_is_recorded_to(tmp_path):
    from toolkit.chat import cassette as module

    cassette = tmp_path / "c.jsonl"
    cassette.write_text('{"elapsed_ms": 1, "request": {"body": "' + "i" * module.SNIFFED + '"}}\n')
    record(cassette)
    assert len(cassette.read_text().splitlines()) == 2
