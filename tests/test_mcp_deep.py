"""`toolkit.mcp.deep`: a message nested too deep to read, told apart from a stray line, and whether it answers."""

import pydantic
import pytest
from mcp.types import jsonrpc_message_adapter

from toolkit.mcp.deep import answers, too_deep


def _errors(line: str) -> list:
    with pytest.raises(pydantic.ValidationError) as raised:
        jsonrpc_message_adapter.validate_json(line)
    return raised.value.errors()


def test_the_parsers_words_are_found_for_a_line_nested_too_deep_and_only_for_it():
    deep = '{"jsonrpc": "2.0", "id": 3, "result": ' + '{"a": ' * 300 + "1" + "}" * 300 + "}"
    assert too_deep(_errors(deep)).startswith("recursion limit exceeded at line 1 column ")
    assert too_deep(_errors("npm WARN something")) is None


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ('{"jsonrpc": "2.0", "id": 3, "result": {"id": 1, "method": "x", "a": [[[[1]]]]}}', True),
        ('{"result": {"method": "inner"}, "id": "a\\"b", "jsonrpc": "2.0"}', True),  # keys inside are not its own
        ('{"jsonrpc": "2.0", "method": "notifications/message", "params": {"id": 1}}', False),
        ('{"a": ' * 50 + "1" + "}" * 50, False),
        ('{"jsonrpc": "2.0", "id": 1, "method": "ping"}', False),  # a request from the server, not an answer
    ],
)
def test_an_answer_is_an_object_with_an_id_and_no_method_at_its_top(line, answer):
    assert answers(line) is answer
