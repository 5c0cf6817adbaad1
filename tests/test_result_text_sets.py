"""A set a tool returns is written in one order every run (`toolkit.tools.set_order`): its
iteration order follows the strings' hashes, which change with each process (PYTHONHASHSEED),
so the same result read differently from run to run (a cassette, a stored notebook output, a
cached prompt no longer matched)."""

import dataclasses
import string

from hash_seeds import printed_under_seeds
from pydantic import BaseModel

from toolkit.tools.result_text import to_text

LETTERS = set(string.ascii_lowercase)
SORTED = "[" + ", ".join(f'"{c}"' for c in string.ascii_lowercase) + "]"


class Tagged(BaseModel):
    tags: set[str]


@dataclasses.dataclass
class Row:
    tags: frozenset[str]


def test_a_set_of_strings_is_written_sorted_wherever_it_is():
    assert to_text(LETTERS) == SORTED
    assert to_text(frozenset(LETTERS)) == SORTED
    assert to_text({"tags": LETTERS, "n": 1}) == '{"tags": ' + SORTED + ', "n": 1}'
    assert to_text([LETTERS]) == "[" + SORTED + "]"
    assert to_text(Tagged(tags=LETTERS)) == '{"tags": ' + SORTED + "}"
    assert to_text(Row(frozenset(LETTERS))) == '{"tags": ' + SORTED + "}"
    assert to_text({10, 9, 100}) == "[9, 10, 100]"


def test_a_set_of_items_that_do_not_compare_is_ordered_by_type_name_then_value():
    assert (
        to_text({"b", 2, None, "a", 1.5, (1, "x")}) == '[null, 1.5, 2, [1, "x"], "a", "b"]'
    )  # the tuple is a list by then
    assert to_text({10, 2, "a"}) == '[2, 10, "a"]'


def test_a_set_reads_the_same_in_processes_with_other_hash_seeds():
    code = "from toolkit.tools.result_text import to_text; print(to_text({'x': set('qwertyuiop'), 'y': {1, 'a', 'b'}}))"
    texts = printed_under_seeds(code, range(4))
    assert texts == {'{"x": ["e", "i", "o", "p", "q", "r", "t", "u", "w", "y"], "y": [1, "a", "b"]}\n'}
