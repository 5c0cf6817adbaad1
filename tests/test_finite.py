import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolkit.chat.finite import first_non_finite


def test_the_first_non_finite_number_in_document_order_with_its_path():
    value = {"a": [1, 2.5, {"b": math.inf}], "c": math.nan}
    assert first_non_finite(value) == (["a", 2, "b"], math.inf)
    assert first_non_finite({"ok": [1, 2.0, "nan"]}) is None


def test_a_deep_value_is_walked_without_recursion():
    deep = [math.nan]
    for _ in range(5000):
        deep = [deep]
    path, number = first_non_finite(deep)
    assert path == [0] * 5001 and math.isnan(number)


@given(
    st.recursive(
        st.floats() | st.integers() | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
    )
)
def test_found_exactly_when_there_is_one(value):
    def has(v):
        if isinstance(v, float):
            return not math.isfinite(v)
        items = v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()
        return any(has(x) for x in items)

    assert (first_non_finite(value) is not None) == has(value)


@pytest.mark.parametrize("seed", range(200))
def test_the_path_found_is_the_plain_walks(seed):
    """Parents are linked, not copied: the same first number and path as copying each path."""
    import math
    import random

    rng = random.Random(seed)

    def value(depth=0):
        kind = rng.randrange(5 if depth < 4 else 2)
        if kind == 0:
            return rng.choice([1.5, math.nan, math.inf, -math.inf, 2, "x", None])
        if kind == 1:
            return rng.choice([0.0, "nan"])
        if kind == 2:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {f"k{i}": value(depth + 1) for i in range(rng.randrange(4))}

    def plain(v):
        stack = [(v, [])]
        while stack:
            node, path = stack.pop()
            if isinstance(node, float) and not math.isfinite(node):
                return path, node
            children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            stack.extend((child, [*path, key]) for key, child in reversed(list(children)))
        return None

    v = value()
    found, expected = first_non_finite(v), plain(v)
    assert (found is None) == (expected is None)
    if found is not None:
        assert found[0] == expected[0] and repr(found[1]) == repr(expected[1])
