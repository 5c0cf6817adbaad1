"""`toolkit.exercises.values`: how the checks read and quote a learner's values."""

import collections
import decimal
import fractions
import types

import numpy as np
import pandas as pd
import pytest

from toolkit.exercises.values import is_number, plain, show, untrusted_class


def test_plain_reads_numpy_pandas_and_the_standard_containers_as_plain_values():
    assert plain(np.int64(2)) == 2 and type(plain(np.int64(2))) is int
    assert plain(np.True_) is True
    assert plain(np.array([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert plain(pd.Series([1.5, 2.5], index=["a", "b"])) == {"a": 1.5, "b": 2.5}
    assert plain(collections.deque([1, 2])) == [1, 2]
    assert plain(collections.Counter("aab")) == {"a": 2, "b": 1}
    assert type(plain(collections.OrderedDict(a=1))) is dict
    assert plain(types.MappingProxyType({"k": np.float32(0.5)})) == {"k": 0.5}
    assert plain({"k": (np.int8(1), {np.int16(2)})}) == {"k": (1, {2})}
    assert plain(range(3)) == [0, 1, 2]


def test_plain_leaves_strings_and_other_classes_as_they_are():
    class Mine:
        pass

    mine = Mine()
    assert plain(mine) is mine
    assert plain("abc") == "abc" and plain(b"ab") == b"ab"


def test_is_number_takes_real_numbers_but_not_bools_or_digit_strings():
    for value in (1, 2.5, np.float64(1.0), fractions.Fraction(1, 3), decimal.Decimal("1.5")):
        assert is_number(value), value
    for value in (True, np.True_, "12", None, 1j):
        assert not is_number(value), value


def test_show_quotes_the_same_value_the_same_way_on_every_run():
    assert show({3, 1, 2}) == "{1, 2, 3}"
    assert show(frozenset({"b", "a"})) == "frozenset({'a', 'b'})"
    assert show([{2, 1}, (1,)]) == "[{1, 2}, (1,)]"
    assert show(set()) == "set()"

    def helper():
        pass

    class Thing:
        pass

    assert show(helper) == "a function named helper"
    assert show(Thing()) == "a Thing object"


def test_show_names_an_object_whose_repr_raises():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    assert show(Broken()) == "a Broken object"


@pytest.mark.parametrize("base", [str, int, list, collections.UserList])
def test_a_learners_subclass_of_a_value_type_is_untrusted(base):
    Sub = type("Sub", (base,), {"__module__": "learner"})
    value = Sub()
    assert untrusted_class({"k": [value]}) is Sub


def test_a_class_with_identity_equality_is_trusted_wherever_it_sits():
    class Plain:
        pass

    assert untrusted_class([Plain(), {"a": (1, 2.0, None)}]) is None


def test_a_decimal_nan_is_read_as_the_float_nan_which_compares_without_raising():
    import decimal
    import math

    from toolkit.exercises import check

    assert all(math.isnan(plain(decimal.Decimal(text))) for text in ("NaN", "sNaN", "-NaN"))
    assert plain([decimal.Decimal("2.5")]) == [decimal.Decimal("2.5")]
    result = check("w6.round_trips", decimal.Decimal("sNaN"))
    assert (result.status, result.feedback) == ("failed", "answer with a number that is finite, not nan")


def test_a_quoted_value_is_masked_whole_before_it_is_cut():
    from toolkit.exercises import check

    key = "sk-proj-" + "Q3learnerKEY" * 3
    quoted = show("x" * 145 + " " + key)
    assert quoted == "'" + "x" * 145 + " [REDACTED]'"  # the mask is shorter than the key: now it fits whole
    result = check("w9.dotted_name", "x" * 145 + " " + key)
    assert "Q3" not in result.feedback and "sk-" not in result.feedback


def test_show_quotes_a_value_whose_repr_has_line_breaks_on_one_line():
    from toolkit.exercises import check
    from toolkit.views.display import show_table

    class Note:
        def __repr__(self):
            return "line one\r\nline two\tend"

    assert show(Note()) == "line one\\r\\nline two\\tend"
    table = show_table([{"role": "system"}, {"role": "user"}])
    # was three lines of feedback, the table's rows each on a line of its own, out of the result's block
    assert check("w4.memory_count", table).feedback == "answer with a number, not   role\\nsystem\\n  user"


def test_a_value_of_an_installed_package_with_its_own_eq_is_not_called_the_learners_class():
    from toolkit.exercises import check

    frame = pd.DataFrame({"group": ["normal", "edge"], "rows": [15, 5]})
    # was "a DataFrame, a class of your own that can decide == by its own code"
    assert check("w4.memory_count", frame).feedback == (
        "your answer holds a DataFrame (from pandas), whose == is its own code, not a plain value's; answer "
        "with plain values or the package's objects"
    )
    Mine = type("Mine", (list,), {"__module__": "__main__", "__eq__": lambda self, other: True, "__hash__": None})
    assert check("w4.memory_count", Mine()).feedback == (
        "your answer holds a Mine, a class of your own that can decide == by its own code; answer with plain "
        "values or the package's objects"
    )


def test_an_object_shown_by_what_it_is_takes_the_article_of_its_class_name():
    """An instance whose repr holds its address read 'a object object', 'a Order object'."""

    class Order:
        pass

    assert show(Order()) == "an Order object"
    assert show(object()) == "an object object"


@pytest.mark.parametrize("module", ["builtins", "toolkit", "toolkit.chat.messages", "numpy"])
def test_a_learners_class_that_claims_a_trusted_module_is_still_untrusted(module):
    """A class is a trusted module's only when that module holds it under its name (as pickle checks before it
    stores a class by name): `__module__ = "builtins"` on a learner's int whose == is always True is a claim."""
    from toolkit.exercises import check

    class UserMessage(int):
        def __eq__(self, other):
            return True

        __hash__ = int.__hash__

    UserMessage.__module__ = module
    assert untrusted_class([UserMessage(0)]) is UserMessage
    result = check("w6.course_bound", UserMessage(0))
    assert result.feedback == (
        "your answer holds a UserMessage, a class of your own that can decide == by its own code; answer with plain "
        "values or the package's objects"
    )


def test_the_trusted_modules_own_classes_and_the_interpreters_types_stay_trusted():
    import collections
    import fractions
    import pathlib

    from toolkit import UserMessage

    values = [
        UserMessage(content="hi"),
        fractions.Fraction(1, 3),
        pathlib.Path("a"),
        collections.Counter(a=1),
        ExceptionGroup("e", [ValueError()]),
        "".join,  # a builtin method: a static type that no `class` statement made
        print,
        range(3),
    ]
    assert [untrusted_class(value) for value in values] == [None] * len(values)
