"""The peers' reflection of a stranger's docstring, compared line by line (round 5).

pydantic-ai (`pydantic_ai/_griffe.py`, `doc_descriptions`: `param.description`) and the OpenAI Agents SDK
(`agents/function_schema.py`, `generate_func_documentation`: `param.description`) both read a docstring
through griffe and keep a parameter's description as written, its wrapped lines joined by "\\n". Here a
parameter's description is one line, its words joined by single spaces (`toolkit.tools.reflect.parse_docstring`
says so): a docstring's line wraps follow the source's width, not what the model should read; the summary,
whose paragraphs mean something, keeps its lines. The descriptions are otherwise the peers' word for word."""

import pytest

from toolkit.tools.reflect import parse_docstring

GOOGLE = """Get the forecast.

    Args:
        city (str): The city
            name.
        days (int, optional): How many days,
            counted from today. Defaults to 3.
    """
NUMPY = """Get the forecast.

    Parameters
    ----------
    city : str
        The city
        name.
    days : int, default 3
        How many days,
        counted from today. Defaults to 3.
    """
SPHINX = """Get the forecast.

    :param str city: The city
        name.
    :param int days: How many days,
        counted from today. Defaults to 3.
    :rtype: str
    """


@pytest.mark.parametrize("doc", [GOOGLE, NUMPY, SPHINX], ids=["google", "numpy", "sphinx"])
def test_a_wrapped_parameter_description_is_one_line_where_the_peers_keep_its_newlines(doc):
    """pydantic-ai 2.78 and openai-agents 0.24 give {'city': 'The city\\nname.', 'days': 'How many days,\\ncounted
    from today. Defaults to 3.'} for each of the three (run on this docstring)."""
    assert parse_docstring(doc) == (
        "Get the forecast.",
        {"city": "The city name.", "days": "How many days, counted from today. Defaults to 3."},
    )


def test_a_summary_keeps_its_lines_and_paragraphs():
    doc = "Get the\n    forecast.\n\n    Second paragraph.\n\n    Args:\n        city: The city.\n    "
    assert parse_docstring(doc) == ("Get the\nforecast.\n\nSecond paragraph.", {"city": "The city."})
