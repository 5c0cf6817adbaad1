"""`ReadOnlyDict`: every change refused with the subclass's own words; copies are plain dicts."""

import copy
import pickle

import pytest

from toolkit.chat.read_only import ReadOnlyDict
from toolkit.chat.sent import SentTool
from toolkit.loop.records import RequestExtra


@pytest.mark.parametrize("kind", [ReadOnlyDict, SentTool, RequestExtra])
def test_every_change_is_refused_and_every_copy_is_a_plain_dict(kind):
    d = kind({"a": 1})
    for change in (
        lambda: d.__setitem__("b", 2),
        lambda: d.__delitem__("a"),
        lambda: d.update(b=2),
        lambda: d.pop("a"),
        lambda: d.popitem(),
        lambda: d.setdefault("b", 2),
        lambda: d.clear(),
    ):
        with pytest.raises(TypeError) as raised:
            change()
        assert str(raised.value) == kind.READ_ONLY
    assert d == {"a": 1}
    for made in (dict(d), d.copy(), copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert type(made) is dict and made == {"a": 1}
