import math

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
