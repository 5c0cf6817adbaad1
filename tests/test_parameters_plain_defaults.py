"""`parameters._add_default` writes a str, bool, None, finite float or short int default as it is,
without `to_jsonable_python` and `json.dumps`: the same property the general path writes, for every
such value and for the values next to them that must take the general path (too long integers,
NaN, infinities, subclasses)."""

import enum
import json
import math
import sys

from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_jsonable_python

from toolkit.tools.parameters import _SAFE_INT, _add_default, _plain_json


def general(default):
    """`_add_default`'s general path, as it was before the plain values were answered apart."""
    prop = {}
    try:
        value = to_jsonable_python(default)
        json.dumps(value, allow_nan=False)
    except Exception:
        return prop
    prop["default"] = value
    return prop


class Size(enum.Enum):
    S = "s"


class Word(str):
    pass


EDGES = [
    0,
    -1,
    _SAFE_INT - 1,
    -_SAFE_INT + 1,
    _SAFE_INT,
    -_SAFE_INT,
    10**5000,
    -(10**5000),
    True,
    False,
    None,
    "",
    "\udce9",
    "名前",
    0.0,
    -0.0,
    1e308,
    math.inf,
    -math.inf,
    math.nan,
    sys.float_info.min,
    Size.S,
    Word("w"),
]

scalars = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),
    st.sampled_from(EDGES),
)


@given(scalars)
def test_the_plain_path_writes_what_the_general_path_writes(default):
    prop = {}
    _add_default(prop, default)
    assert prop == general(default)
    if prop:
        assert type(prop["default"]) is type(general(default)["default"])


def test_every_edge_agrees_and_only_plain_values_skip_the_general_path():
    for default in EDGES:
        prop = {}
        _add_default(prop, default)
        assert prop == general(default), default
    plain = [d for d in EDGES if _plain_json(d)]
    assert not any(type(d) in (Size, Word) for d in plain)
    assert not any(type(d) is int and abs(d) >= _SAFE_INT for d in plain)
    assert not any(isinstance(d, float) and not math.isfinite(d) for d in plain)
