"""Tools given in a set: refused, since a set's order changes from one process to the next.

`tools={query_order, cancel_order}` was read in hash order (a function's hash is its id, a
name's is salted per process): the request listed the tools in another order in each process,
so the model's choices, a cassette's match and a notebook's outputs changed with it. A set (or
a frozenset) is refused wherever a list of tools or providers is taken, naming the fix; a dict
and its views keep the order the items were put in and are read as before."""

from __future__ import annotations

import pytest

from tests.test_sources_given_wrong import cancel_order, query_order
from toolkit.chat.messages import UserMessage
from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError, ToolDefinitionError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import ProviderRequest, StaticProvider, build_context

_PROBLEM = (
    "takes a list, and got {}, which has no order: its items would be read in another order in each process, "
    "and the model sent its tools in that order (its answers and a cassette's match would change with it)"
)


def test_a_set_of_tools_is_refused_before_anything_is_sent():
    model = ScriptedModel(["hi"])
    with pytest.raises(ToolDefinitionError) as caught:
        run_loop(model, [UserMessage(content="hi")], tools={query_order, cancel_order})
    assert str(caught.value) == (
        "tools=set object: tools= " + _PROBLEM.format("a set") + ". "
        "Fix: give a list, in the order you want: tools=[cancel_order, query_order]"
    )
    assert model.requests == []


def test_a_frozenset_of_many_things_names_no_order_in_its_fix():
    with pytest.raises(ToolDefinitionError) as caught:
        build_context(tools=frozenset({query_order, cancel_order, len, 3}))
    assert str(caught.value) == (
        "tools=frozenset object: tools= " + _PROBLEM.format("a frozenset") + ". "
        "Fix: give a list, in the order you want: tools=[...]"
    )


class Shop:
    dynamic = False

    def __init__(self, *tools):
        self.tools = tools

    def provide(self, request):
        return set(self.tools)


def test_a_set_of_providers_is_refused_too():
    with pytest.raises(ToolDefinitionError) as caught:
        build_context(providers={Shop(query_order)})
    assert str(caught.value).startswith("providers=set object: providers= " + _PROBLEM.format("a set"))


def test_a_static_provider_given_a_set_is_refused_where_it_is_made():
    with pytest.raises(ToolDefinitionError) as caught:
        StaticProvider({query_order})
    assert str(caught.value) == (
        "StaticProvider(set object): StaticProvider " + _PROBLEM.format("a set") + ". "
        "Fix: give a list, in the order you want: StaticProvider([query_order])"
    )


def test_a_provider_that_returns_a_set_is_named():
    with pytest.raises(ConfigurationError) as caught:
        build_context(providers=[Shop(query_order, cancel_order)], request=ProviderRequest(()))
    assert str(caught.value) == (
        "Shop.provide() returned a set, which has no order: the model would be sent its tools in a different "
        "order in each process. Fix: return a list, in the order you want: return [tool, ...]"
    )


def test_a_dict_and_its_views_keep_the_order_they_were_written_in():
    ordered = {cancel_order: 1, query_order: 2}
    assert list(build_context(tools=ordered.keys()).available) == ["cancel_order", "query_order"]
    assert list(build_context(tools=list(ordered)).available) == ["cancel_order", "query_order"]
