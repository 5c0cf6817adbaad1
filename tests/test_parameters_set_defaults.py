"""A parameter's default that is (or holds) a set is written into the schema in one order every run
(`toolkit.tools.parameters`, through `toolkit.tools.set_order`): a set of strings iterates in its hashes'
order, which changes with each process (PYTHONHASHSEED), so the tool spec sent to the model read
differently from run to run (a cassette, a stored notebook output, a cached prompt no longer matched)."""

import json
import string

from hash_seeds import printed_under_seeds

from toolkit import tool
from toolkit.tools.reflect import clear_cache, reflect

LETTERS = frozenset(string.ascii_lowercase)


def _defaults(fn):
    clear_cache()
    properties = reflect(fn).spec.to_openai()["function"]["parameters"]["properties"]
    return {name: prop.get("default") for name, prop in properties.items()}


def test_a_set_default_is_written_sorted_wherever_it_is():
    @tool("t")
    def pick(
        letters: frozenset[str] = LETTERS,
        lists: list[set[str]] = [set("zyx"), set("cba")],  # noqa: B006
        by_key: dict[str, frozenset[str]] = {"k": frozenset("qwerty")},  # noqa: B006
        mixed: frozenset[int | str] = frozenset({"b", 10, "a", 2}),
    ) -> str:
        return ""

    assert _defaults(pick) == {
        "letters": sorted(string.ascii_lowercase),
        "lists": [["x", "y", "z"], ["a", "b", "c"]],
        "by_key": {"k": ["e", "q", "r", "t", "w", "y"]},
        "mixed": [2, 10, "a", "b"],
    }


def test_a_set_default_reads_the_same_in_processes_with_other_hash_seeds():
    code = (
        "import json; from toolkit import tool; from toolkit.tools.reflect import reflect\n"
        "@tool('t')\ndef t(tags: frozenset[str] = frozenset('qwertyuiop')) -> str: return ''\n"
        "print(json.dumps(reflect(t).spec.to_openai()['function']['parameters']['properties']['tags']['default']))"
    )
    texts = printed_under_seeds(code, (1, 2, 3, 12345))
    assert texts == {json.dumps(sorted("qwertyuiop")) + "\n"}


def test_a_set_inside_a_model_or_dataclass_default_is_written_sorted_in_the_parameter_and_in_defs():
    code = (
        "import dataclasses, json\nfrom pydantic import BaseModel, Field\n"
        "from toolkit import tool\nfrom toolkit.tools.reflect import reflect\n"
        "class Opts(BaseModel):\n    tags: frozenset[str] = Field(frozenset('qwertyuiop'), alias='tagSet')\n"
        "class Outer(BaseModel):\n    inner: Opts = Opts()\n"
        "@dataclasses.dataclass\nclass Box:\n    items: frozenset[str] = frozenset('asdfghjkl')\n"
        "@tool('t')\ndef t(o: Outer = Outer(), b: Box = Box()) -> str: return ''\n"
        "print(json.dumps(reflect(t).spec.to_openai()['function']['parameters'], sort_keys=True))"
    )
    texts = printed_under_seeds(code, (1, 2, 3, 12345))
    assert len(texts) == 1
    parameters = json.loads(texts.pop())
    word = sorted("qwertyuiop")
    assert parameters["properties"]["o"]["default"] == {"inner": {"tagSet": word}}  # by alias, as pydantic writes it
    assert parameters["$defs"]["Outer"]["properties"]["inner"]["default"] == {"tagSet": word}
    assert parameters["properties"]["b"]["default"] == {"items": sorted("asdfghjkl")}
