"""The search box: keyword and vector results side by side, with scores and what the model reads."""

import pytest

from toolkit.errors import ConfigurationError
from toolkit.tools.reflect import ToolSpec
from toolkit.views.search_box import SearchBox


def test_typing_a_query_and_clicking_searches_both_ways():
    box = SearchBox()
    box.query.value = "refund a payment"
    box.button.click()
    keyword, vector = box.outcomes
    assert keyword.found[0] == "refund_payment" and vector.found[0] == "refund_payment"
    text = box.text()
    assert "1. refund_payment (9)" in text and "the model reads:" in text
    html = box._repr_mimebundle_()["text/html"]
    assert html.count("<b>the model reads</b>") == 2 and "refund_payment" in html


def test_setting_the_query_searches_without_a_click():
    box = SearchBox()
    box.query.value = "cancel order"
    assert box.outcomes[0].found[0] == "cancel_order"


def test_a_blank_query_is_answered_as_the_model_would_be():
    box = SearchBox()
    box.query.value = "   "
    box.search()
    assert "must contain at least one non-blank search term" in box.text()


def test_a_chinese_query_reads_as_chinese_in_the_text():
    box = SearchBox()
    box.query.value = "退款 订单"
    assert 'KeywordSearch {"terms": ["退款", "订单"]}' in box.text() and "\\u" not in box.text()


def test_a_megabyte_query_is_cut_in_the_text_as_in_the_html():
    """A query of a million characters went whole into the text/plain of both columns (2 MB; the
    HTML cut each text at SHOWN_CHARS): the arguments line is cut the same way."""
    from toolkit.views.html import SHOWN_CHARS

    box = SearchBox()
    box.query.value = "x" * 1_000_000
    text = box._repr_mimebundle_()["text/plain"]
    arguments = '{"terms": ["' + "x" * 1_000_000 + '"]}'
    left_out = f"…({len(arguments) - SHOWN_CHARS:,} more characters not shown)"
    assert (
        text.splitlines()[1]
        == "KeywordSearch " + '{"terms": ["' + "x" * (SHOWN_CHARS - 12) + left_out + " → searched 329 tools"
    )
    assert len(text) < 3 * SHOWN_CHARS


def test_a_query_that_is_not_text_is_one_readable_line():
    """SearchBox(query=5) raised ipywidgets' TraitError ("The 'value' trait of a Text instance
    expected a unicode string, not the int 5"), which does not name SearchBox."""
    import pytest

    from toolkit.errors import ConfigurationError

    for query, kind in ((5, "an int"), (None, "None"), (["parcel"], "a list")):
        with pytest.raises(ConfigurationError) as caught:
            SearchBox(query=query)
        assert str(caught.value) == (
            f"SearchBox(query): takes the query as text, and got {kind}; e.g. SearchBox(query='where is my parcel')"
        )


@pytest.mark.parametrize(
    "specs, said",
    [
        (5, "takes a list of tool specs, and got int; e.g. [t.spec for t in tools_from(...)]"),
        ("parcel", "takes a list of tool specs, and got str; e.g. [t.spec for t in tools_from(...)]"),
        ([1], 'item 0 (int) is not a ToolSpec; make one: ToolSpec("name", "description"), or [t.spec for t in '
         "tools_from(f)] for functions"),
        ([ToolSpec("track", "where a parcel is")] * 2, "the tool name 'track' is given 2 times (items 0, 1); a model "
         "calls a tool by its name, so each must be unique: rename or namespace them, e.g. 'server_track'"),
    ],
)  # fmt: skip
def test_a_catalogue_that_is_no_list_of_specs_is_refused_naming_search_box(specs, said):
    """SearchBox(5) said 'ToolSearch.index: …': a function the learner never called."""
    with pytest.raises(ConfigurationError) as info:
        SearchBox(specs)
    assert str(info.value) == f"SearchBox(specs): {said}"


def test_a_catalogue_given_as_a_generator_is_read_once_for_both_searches():
    """The keyword index read the generator, and the vector index got what was left of it: nothing."""
    specs = [ToolSpec("track", "where a parcel is"), ToolSpec("refund", "money back for an order")]
    box = SearchBox(s for s in specs)
    assert len(box.keyword_index) == len(box.vector_index) == 2
