"""A SKILL.md whose front matter is large: PyYAML reads it in pure Python (twice: its nesting, then its
values), some 10 ms per kilobyte on a slow machine, and SKILL.md may be up to 8 MiB, so a stranger's
front matter of 200,000 keys held `load_skill` for minutes. Front matter past `MAX_FRONT_MATTER`
characters is refused before YAML reads it; the body is not bounded by it."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.skills.folders import MAX_FRONT_MATTER, parse_skill_md

HEAD = "name: big\ndescription: d\n"


def test_front_matter_past_the_limit_is_refused_before_yaml_reads_it(monkeypatch):
    import yaml

    def unread(*_args, **_kwargs):
        raise AssertionError("YAML read it")

    monkeypatch.setattr(yaml, "SafeLoader", unread)
    front = HEAD + "x: " + "y" * (MAX_FRONT_MATTER - len(HEAD) - 3 + 1)
    assert len(front) == MAX_FRONT_MATTER + 1
    with pytest.raises(ConfigurationError) as caught:
        parse_skill_md(f"---\n{front}\n---\nbody")
    assert str(caught.value) == (
        "SKILL.md: its front matter is 16,385 characters, over 16,384 (it holds 'name: …', 'description: …' and "
        "a few short fields). Fix: move the rest into the body of SKILL.md"
    )


def test_a_large_body_under_small_front_matter_is_read():
    body = "行" * 200_000
    assert parse_skill_md(f"---\n{HEAD}---\n{body}") == ({"name": "big", "description": "d"}, body)
