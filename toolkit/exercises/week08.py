"""Week 8 exercises: the +2/+1 keyword score, a query that finds a tool, vector search's k, what search
is not (a permission), a repeated search.

The query must rank the tool first on its score: terms that only tie it with other tools (listed first because the
catalogue lists it first) fail, naming the tie.

Leaves out: the accuracy-vs-size chart (the week-8 notebook draws it).
"""

import functools
import random
import re
import sys
from collections.abc import Callable
from typing import Any

from toolkit.exercises.answers import counted, made_a_list, number_problem, one_of, printed
from toolkit.exercises.cells import answer_exercise
from toolkit.exercises.core import (
    LearnerError,
    Verdict,
    answers_first,
    attempt,
    exercise,
    left_as_given,
    own_work,
    reference,
    right,
    wrong,
)
from toolkit.exercises.values import is_number, show


@functools.lru_cache(maxsize=1)
def catalog() -> Any:
    from toolkit.search.catalog import load_catalog

    return load_catalog()


@exercise(
    "w8.score",
    8,
    "build",
    "write score(name, description, terms): +2 per term in the name, +1 per term in the description",
    starter="""
        from toolkit.exercises import check


        def score(name, description, terms):
            # terms are already cleaned (trimmed, lower-case, each once); compare case-insensitively
            return ...


        check("w8.score", score)
        """,
    solution="""
        from toolkit.exercises import check


        def score(name, description, terms):
            name, description = name.lower(), description.lower()
            return sum(2 * (t in name) + (t in description) for t in terms)


        check("w8.score", score)
        """,
    hint="a term counts once per field if it occurs anywhere in it (as a substring: 'rain' is in 'book_train').",
)
def check_score(fn: Any) -> Verdict:
    from toolkit.search.keyword import clean_terms

    score = reference("toolkit.search.keyword", "score")

    specs = catalog().tools
    rng = random.Random(8)
    words = ["order", "cancel", "rain", "ship", "a", "refund", "payment", "user", "get", "zzz", "report", "tax"]
    cases, misses = 0, []
    sampled = rng.sample(list(specs), 60)
    camel = [_camel_cased(spec) for spec in random.Random(88).sample(list(specs), CAMEL_CASES // 4)]
    drawn = []
    for spec in [*sampled, *camel]:
        for _ in range(4):
            last = re.split(r"_|(?=[A-Z])", spec.name)[-1]  # the name's last word: payment, of refundPayment too
            drawn.append((spec, clean_terms(rng.sample(words, rng.randint(1, 4)) + [last.upper()])))
    drawn += [(spec, clean_terms([*written, rng.choice(words)])) for spec, written in _written_terms(specs)]
    drawn += [(spec, clean_terms(terms)) for spec, terms in _pattern_terms(specs)]

    def run(pair: tuple[Any, list[str]]) -> Any:
        spec, terms = pair
        given = list(terms)  # a copy: emptying it must not change the expected answer
        with own_work(sys.modules[score.__module__], "the keyword search", helpers=(clean_terms,)):
            got = attempt(fn, spec.name, spec.description, given)
        left_as_given(
            f"score({spec.name!r}, …, terms)",
            "terms",
            terms,
            given,
            "the search scores every tool with the same terms, so the next tool would be scored with what is left",
        )
        return got

    for (spec, terms), got in answers_first(drawn, run, settled=lambda got: got is None):  # never a number
        if isinstance(got, LearnerError):
            raise got
        want = score(spec, terms)
        cases += 1
        if not is_number(got) and not isinstance(got, bool):  # a bool is a count of 0 or 1, as sum() of bools
            return wrong(
                f"score({spec.name!r}, …, {terms}) returned {show(got)}{printed(got) or ';'} return the score "
                "as a number (an int)"
            )
        if got != want:
            misses.append((spec, terms, got, want))
    if misses:
        spec, terms, got, want = misses[0]
        return wrong(
            f"score({spec.name!r}, …, {terms}) gave {show(got)}, LangChain4j's rule gives {want}{_tip(misses)}"
        )
    return right(
        f"identical to toolkit.search.keyword.score on {cases} tool/terms pairs: "
        f"{cases - CAMEL_CASES - WRITTEN_CASES - PATTERN_CASES} of the catalogue, {CAMEL_CASES} with its names in "
        f"camelCase, {WRITTEN_CASES} searching a whole name or a word such as read-only, {PATTERN_CASES} a word "
        "ended by '?' or '*'."
    )


CAMEL_CASES = 60
"""Tool/terms pairs `w8.score` compares on tools of the catalogue renamed in camelCase (4 each): every
catalogue name is lower-case, so a score that compared the name as it is (no `.lower()`) agreed with
the rule on all of them; an MCP server's tool may well be `refundPayment`."""


def _camel_cased(spec: Any) -> Any:
    """The tool `spec` named in camelCase (`refund_payment` → `refundPayment`), its description kept."""
    import dataclasses

    head, *rest = spec.name.split("_")
    return dataclasses.replace(spec, name=head + "".join(word[:1].upper() + word[1:] for word in rest))


WRITTEN_CASES = 60
"""Tool/terms pairs `w8.score` compares on terms as a model may write them (`_written_terms`): every other
term is a word of letters, so a score that read the name as words (its `_` made a space, its camelCase
split) or dropped the description's punctuation agreed with the rule on all of them."""


def _written_terms(specs: Any) -> list[tuple[Any, list[str]]]:
    """Tools of the catalogue whose description holds a word with a hyphen, an apostrophe or a dot inside
    (`read-only`, `customer's`), each searched (as is, then renamed in camelCase) by its whole name and
    that word: (tool, terms) for `WRITTEN_CASES` pairs."""
    rng = random.Random(888)
    marked = [spec for spec in specs if any(_INNER.search(word) for word in (spec.description or "").split())]
    pairs = []
    for spec in rng.sample(marked, WRITTEN_CASES // 2):
        word = rng.choice([w for w in (spec.description or "").split() if _INNER.search(w)])
        word = word.strip('()[]{},.;:!?"')  # as a model writes it: `(e.g.` is searched as `e.g`
        pairs += [(spec, [spec.name, word]), (_camel_cased(spec), [_camel_cased(spec).name, word])]
    return pairs


PATTERN_CASES = 20
"""Tool/terms pairs `w8.score` compares on a word ended by '?' or '*' (`_pattern_terms`), as a model may type a
question or a wildcard: every other term reads the same as a regular expression, so a score that searched with
re.search(term, …) agreed with the rule on all of them."""


def _pattern_terms(specs: Any) -> list[tuple[Any, list[str]]]:
    """Tools of the catalogue, each searched by the last word of its name ended by '?', then by '*' (`payment?`,
    `payment*`): read as a pattern, each finds the word without its last letter, text no field holds as written."""
    rng = random.Random(8888)
    pairs = []
    for spec in rng.sample(list(specs), PATTERN_CASES // 2):
        word = spec.name.split("_")[-1]
        pairs += [(spec, [word + "?"]), (spec, [word + "*"])]
    return pairs


def _as_patterns(name: str, description: str, terms: list[str]) -> int:
    """The score of a rule that reads each term as a regular expression, case aside (-1 when a term is no valid
    pattern: no score, so no tip)."""
    try:
        return sum(2 * bool(re.search(t, name, re.I)) + bool(re.search(t, description, re.I)) for t in terms)
    except re.error:
        return -1


_INNER = re.compile(r"\w[^\w\s]+\w")
"""A word holding punctuation between its letters: read-only, customer's, e.g."""


LOWER_CASE = " — compare in lower case: the terms are lower-cased, names and descriptions may not be"

AS_WRITTEN = (
    " — compare the fields as they are written, '_' and punctuation kept: a model may search a tool's whole name "
    "(refund_payment) or a word such as read-only"
)

MISTAKES: tuple[tuple[str, Callable[[str, str, list[str]], int]], ...] = (
    (
        " — count a term once per field, not once per occurrence",
        lambda name, desc, terms: sum(2 * name.lower().count(t) + desc.lower().count(t) for t in terms),
    ),
    (LOWER_CASE, lambda name, desc, terms: sum(2 * (t in name) + (t in desc) for t in terms)),
    (LOWER_CASE, lambda name, desc, terms: sum(2 * (t in name.lower()) + (t in desc) for t in terms)),
    (LOWER_CASE, lambda name, desc, terms: sum(2 * (t in name) + (t in desc.lower()) for t in terms)),
    (
        " — a hit in the name is worth 2",
        lambda name, desc, terms: sum((t in name.lower()) + (t in desc.lower()) for t in terms),
    ),
    (
        " — a hit in the name is worth 2 and one in the description 1: yours has them the other way round",
        lambda name, desc, terms: sum((t in name.lower()) + 2 * (t in desc.lower()) for t in terms),
    ),
    (
        " — a term counts wherever it occurs in a field, inside a word too ('rain' is in 'book_train')",
        lambda name, desc, terms: sum(2 * (t in _words(name)) + (t in _words(desc)) for t in terms),
    ),
    (
        " — a term in both the name and the description scores in both: 2 + 1",
        lambda name, desc, terms: sum(2 if t in name.lower() else int(t in desc.lower()) for t in terms),
    ),
    (
        AS_WRITTEN,
        lambda name, desc, terms: sum(2 * (t in name.lower().replace("_", " ")) + (t in desc.lower()) for t in terms),
    ),
    (
        AS_WRITTEN,
        lambda name, desc, terms: sum(
            2 * (t in name.lower()) + (t in re.sub(r"[^\w\s]", " ", desc.lower())) for t in terms
        ),
    ),
    (
        " — a term is text to look for, not a pattern: '?' and '*' in it are characters, so test it with `in` (or "
        "re.escape it)",
        _as_patterns,
    ),
)
"""The usual wrong rules, each with its tip and the score it gives (one tip may have several rules: a
field left in its case, either one or both)."""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


def _tip(misses: list[tuple[Any, list[str], Any, int]]) -> str:
    """The mistake of a wrong score: the one usual wrong rule that gives the learner's score on every
    miss — never a guess from one miss that two rules explain alike — or "" when none (or several) does."""
    tips = {
        tip
        for tip, rule in MISTAKES
        if all(got == rule(spec.name, spec.description, terms) for spec, terms, got, _ in misses)
    }
    return tips.pop() if len(tips) == 1 else ""


TARGET = "refund_payment"


@answer_exercise(
    "w8.find_query",
    f"write at most two search terms for which keyword search ranks {TARGET} first",
    kind="write",
    answer=["refund", "payment"],
    comment='one or two terms, e.g. ["cancel", "order"]',
    hint="a term in the name scores 2; pick words of the tool's name that other tools' names lack.",
)
def check_find_query(answer: Any) -> Verdict:
    from toolkit.search.keyword import KeywordSearch

    if isinstance(answer, (set, frozenset)):  # the terms' order never changes a score
        answer = sorted(answer, key=repr)
    if isinstance(answer, str):  # "refund payment": both words in one text, a term of its own
        return wrong("answer with a list of one or two terms, not one text: each term is a text of its own in the list")
    if not isinstance(answer, (list, tuple)):
        return wrong(f"answer with a list of one or two terms{made_a_list(answer)}")
    if not 1 <= len(answer) <= 2:
        return wrong(
            f"answer with a list of one or two terms; yours {'is empty' if not answer else f'has {len(answer)}'}"
        )
    if odd := [term for term in answer if not isinstance(term, str)]:
        return wrong(f'a search term is a text, such as "order", not {show(odd[0])}')
    search = KeywordSearch()
    found = search.search(search.index(catalog().tools), list(answer))
    ranking = ", ".join(f"{m.name} ({m.score:g})" for m in found) or "nothing"
    tied = [m for m in found[1:] if m.score == found[0].score] if found else []
    if found and found[0].name == TARGET and not tied:
        return right(f"found: {ranking}")
    if found and found[0].name == TARGET:  # listed first only because the catalogue lists it first
        ties = ", ".join(f"{m.name} ({m.score:g})" for m in tied)
        return wrong(
            f"{TARGET} only ties with {ties}: a tie is broken by the catalogue's order, not by your terms; find terms "
            f"that score {TARGET} higher than every other tool — keyword search returns {ranking}"
        )
    return wrong(f"keyword search returns {ranking}{_where_target(found)}")


def _where_target(found: list[Any]) -> str:
    """What is wrong with where `TARGET` is in a ranking it does not top alone: listed after a tool of the same
    score, below a better one, or not in it; "" for an empty ranking (it says itself that nothing was found)."""
    if not found:
        return ""
    first = found[0]
    mine = next((m for m in found if m.name == TARGET), None)
    if mine is None:
        return f": {TARGET} is not among them"
    if mine.score == first.score:
        return (
            f": {TARGET} scores as much as {first.name} ({first.score:g}) but is listed after it (a tie keeps the "
            f"catalogue's order); find terms that score {TARGET} higher than every other tool"
        )
    return (
        f": {TARGET} scores {mine.score:g}, {first.name} more ({first.score:g}); find terms that score {TARGET} higher "
        "than every other tool"
    )


@answer_exercise(
    "w8.vector_k",
    'how many tools does vector search return for the nonsense query "zzqx qqq"?',
    answer=5,
    comment="a number",
    hint="keyword search needs a hit; vector search ranks every tool by similarity and returns its top k.",
)
def check_vector_k(answer: Any) -> Verdict:
    from toolkit.search.vector import VectorSearch

    vector = VectorSearch()
    found = vector.search(vector.index(catalog().tools), "zzqx qqq")
    if problem := number_problem(answer):
        return problem
    if answer == len(found):
        return right(
            f"{len(found)} tools, best {found[0].name} at {found[0].score:.2f}: nonsense still costs "
            "tokens unless a similarity floor cuts it."
            if found
            else "no tools: a floor cut them all."
        )
    if answer == 0:
        return wrong("vector search has no notion of 'no hit': it ranks every tool, whatever the query")
    return wrong(f"it did not return {counted(answer, 'tool')}")


def _search_loop(script: list[Any]) -> Any:
    from toolkit.chat.messages import UserMessage
    from toolkit.chat.scripted import ScriptedModel
    from toolkit.loop.run import run_loop
    from toolkit.search.catalog import catalog_tools
    from toolkit.search.keyword import KeywordSearch
    from toolkit.search.tool import ToolSearch

    context = ToolSearch(KeywordSearch()).context(catalog_tools(catalog().tools))
    return run_loop(ScriptedModel(script), [UserMessage(content="cancel my order")], context=context)


@answer_exercise(
    "w8.hidden_callable",
    "search first: the model calls cancel_order by name before any search found it — does it run? (True/False)",
    answer=True,
    comment="True or False",
    hint="search decides which tools are *sent* (tokens), not which may run; an allow-list is a permission.",
)
def check_hidden_callable(answer: Any) -> Verdict:
    from toolkit.chat.scripted import call

    if not isinstance(answer, bool):
        return wrong(f"answer True or False, not {show(answer)}")
    result = _search_loop([call("cancel_order", order_id="SO-1", reason="x"), "ok"])
    ran = result.executions[0].error_kind is None
    if answer is ran:
        return right(
            "hidden tools are still callable by name: search saves tokens, it is not a permission."
            if ran
            else "a hidden tool is refused."
        )
    return wrong(f"it {'ran' if ran else 'was refused'}: {result.executions[0].result.content[:80]}")


@answer_exercise(
    "w8.repeat_search",
    'the model searches ["order"] twice in a row: does the second search return the same tools? (True/False)',
    answer=False,
    comment="True or False",
    hint="a search looks only at the tools not found yet.",
)
def check_repeat_search(answer: Any) -> Verdict:
    from toolkit.chat.scripted import call

    if not isinstance(answer, bool):
        return wrong(f"answer True or False, not {show(answer)}")
    result = _search_loop([call("tool_search_tool", terms=["order"]), call("tool_search_tool", terms=["order"]), "ok"])
    first, second = (e.result.content for e in result.executions[:2])
    same = first == second
    if answer is same:
        return right("the second search skips what was found: the same terms bring new tools.")
    return wrong(
        "the second search returned "
        + ("the same" if same else "different")
        + " tools: "
        + second.splitlines()[1][:60]
        + "…"
    )


WHERE = ("a variable of the ToolSearch object", "the search tool result's attributes", "the system message")


@exercise(
    "w8.found_where",
    8,
    "predict",
    "where does the loop keep the tools a search found, so that they survive a restart?",
    starter="""
        from toolkit.exercises import check
        from toolkit.exercises.week08 import WHERE

        print(WHERE)
        answer = ...   # one of WHERE
        check("w8.found_where", answer)
        """,
    solution="""
        from toolkit.exercises import check
        from toolkit.exercises.week08 import WHERE

        print(WHERE)
        answer = "the search tool result's attributes"
        check("w8.found_where", answer)
        """,
    hint="what survives a restart is what the memory store saves: the messages.",
)
def check_found_where(answer: Any) -> Verdict:
    from toolkit.chat.messages import ToolResultMessage
    from toolkit.chat.scripted import call
    from toolkit.loop.records import FOUND_TOOLS

    result = _search_loop([call("tool_search_tool", terms=["cancel", "order"]), "ok"])
    kept = [m for m in result.messages if isinstance(m, ToolResultMessage) and FOUND_TOOLS in m.attributes]
    actual = WHERE[1] if kept else WHERE[0]
    answer = one_of(answer, WHERE)
    if answer == actual:
        names = kept[0].attributes[FOUND_TOOLS] if kept else []
        return right(f"the result carries {FOUND_TOOLS}={names}: stored with the conversation, never sent as text.")
    if answer is None:
        return wrong("answer with one of WHERE")
    if answer == WHERE[0]:
        return wrong("a fresh ToolSearch after a restart knows nothing; the memory does — in the tool result")
    return wrong("the system message is unchanged")
