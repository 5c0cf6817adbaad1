"""A method that overrides a documented one without a docstring of its own is described by the
one it overrides, as `inspect.getdoc` reads it (the OpenAI Agents SDK and LangChain do): the tool
went out with no description and undescribed parameters."""

from toolkit.tools.decorator import tool
from toolkit.tools.execute import tools_from


class Search:
    def run(self, query: str, limit: int = 5) -> str:
        """Search the catalogue.

        Args:
            query: Words to look for.
            limit: At most this many hits.
        """
        return ""


class ShopSearch(Search):
    @tool
    def run(self, query: str, limit: int = 5) -> str:
        return f"{query} {limit}"


class Quiet(Search):
    @tool
    def run(self, query: str, limit: int = 5) -> str:
        """"""  # an empty docstring of its own: said on purpose, kept
        return query


def test_an_override_without_a_docstring_is_described_by_the_method_it_overrides():
    [made] = tools_from(ShopSearch())
    assert made.spec.description == "Search the catalogue."
    assert made.spec.parameters["properties"] == {
        "query": {"type": "string", "description": "Words to look for."},
        "limit": {"type": "integer", "default": 5, "description": "At most this many hits."},
    }


def test_an_empty_docstring_of_its_own_is_kept():
    [made] = tools_from(Quiet())
    assert made.spec.description == ""
    assert made.spec.parameters["properties"]["query"] == {"type": "string"}
