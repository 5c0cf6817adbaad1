"""The fake gateway's "model": from a checked request to what the assistant says.

`decide(request, rules) -> Decision` — text, or tool calls (name + arguments dict):

1. the conversation ends with tool results → answer from them (`[[answer]]` templates), unless
   a result names an offered tool (a tool search found it) that matches the question: call it;
2. read the last user message (`read_text`); a hard "should not call" rule → its reply;
3. a tool the text names literally (with the JSON object after its name; else a shop tool
   with the facts, any other with its required arguments filled from the text, as below), else
   each matching intent whose tool is offered → one call each, in rules order; an order id and nothing matched → the fallback tool; still
   nothing → the best keyword match among the tools no rule names (`toolkit.gateway.generic`; one
   for each clause that picks another tool: "the weather in Paris and the time in Tokyo"),
   which also wins over a "should not call" rule (a complaint skill may handle a complaint); still
   nothing and no such rule matched → the previous turn's calls again, with what a follow-up that names
   no tool changes ("And in London?": `_follow_up_calls`), else a tool that finds tools, if offered
   (`_search_first`); a
   rule that `calls_nothing` (the user asked for no look-up: "don't look it up", "不用查") → its reply;
4. `tool_choice` ("none" / "required" / one function / `allowed_tools`, which offers only
   its tools, with its mode) and `parallel_tool_calls` overrule; a
   forced call always carries every required argument (filled from the schema if need be), and
   so does a call of a strict tool (`"strict": true`: OpenAI promises such calls match the schema,
   https://platform.openai.com/docs/guides/function-calling#strict-mode), where a shop tool is
   otherwise called with the facts alone;
5. nothing to call → ask for the order id, say it cannot look it up, a soft decline
   (greeting, thanks), or the default reply.

A request without `tools` whose system prompt names the intents' tools gets the same
decision in the text protocol of week 3 (section 7, the prompt-protocol route). The decision is the same in every mode; the
modes (B, D, E) are applied afterwards by `toolkit.gateway.core`.

Leaves out: more than one order id per message, memory beyond the previous user turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from toolkit.gateway.content import without_tool_images
from toolkit.gateway.generic import (
    ToolInfo,
    answered,
    asks_a_place,
    carried,
    fill_arguments,
    fill_clause,
    follow_up,
    listed_calls,
    missing,
    picks,
    search_terms,
    tool_finder,
)
from toolkit.gateway.judge import takes
from toolkit.gateway.language import in_english
from toolkit.gateway.negated import affirmed_facts
from toolkit.gateway.rules import Answer, Facts, Rules, find_order_id, read_text
from toolkit.gateway.state_question import asks_state, sets_state
from toolkit.gateway.toolset import ToolSet
from toolkit.gateway.toolset import offered as offered_tools
from toolkit.gateway.unnamed import unnamed_choice
from toolkit.gateway.unpatterned import built_pattern
from toolkit.gateway.unsaid import unsaid_number

_SENTENCE_END = re.compile(r"(?<=[。！？!?])")


class Call(NamedTuple):
    """A tool call the rules decided on, before any mode touches it."""

    name: str
    arguments: dict[str, Any]


class Decision(NamedTuple):
    """What the assistant says: `text`, or `calls` (never both)."""

    text: str | None = None
    calls: tuple[Call, ...] = ()
    order_id: str | None = None
    """The order id the user mentioned, for the mode B / D templates."""


def decide(request: dict[str, Any], rules: Rules, tools: ToolSet | None = None) -> Decision:
    """The rules' answer to a request already accepted by `check_request`; `tools`, the
    request's `tools` read once (`toolkit.gateway.toolset.prepare`), saves reading them again."""
    messages = without_tool_images(request["messages"])
    if request.get("tools") is None and (prose := _prose_tools(messages, rules)):
        return _decide_prose(messages, prose, rules)
    choice = request.get("tool_choice", "auto")
    prepared = None
    if choice == "none":
        offered: dict[str, ToolInfo] = {}
    elif tools is not None and tools.problem is None:
        prepared, offered = tools, tools.offered
    else:
        offered = offered_tools(request.get("tools") or ())
    if type(choice) is dict and choice.get("type") == "allowed_tools":
        choice, offered = _allowed(choice["allowed_tools"], offered)
    if messages[-1]["role"] == "tool" and choice in ("auto", "none"):
        found = _found_by_results(messages, offered, rules, prepared)
        if found:
            return found
        return _results_answered(_trailing_results(messages), messages, rules)
    facts, text = _conversation_facts(messages, rules)
    decision = _auto(facts, text, offered, rules, messages, prepared)
    if choice != "auto":
        decision = _apply_choice(choice, decision, facts, offered, rules, messages)
    elif decision.calls and (strict := _strict_names(request, prepared)):
        context = _system_text(messages)
        calls = [_complete(c, offered, facts, rules, context) if c.name in strict else c for c in decision.calls]
        decision = decision._replace(calls=tuple(calls))
    if request.get("parallel_tool_calls") is False:
        decision = decision._replace(calls=decision.calls[:1])
    return decision


def _strict_names(request: dict[str, Any], prepared: ToolSet | None) -> frozenset[str]:
    """The names of the request's strict tools (a prepared list found them once: `ToolSet.strict`)."""
    if prepared is not None:
        return prepared.strict
    return frozenset(t["function"]["name"] for t in request.get("tools") or () if t["function"].get("strict") is True)


def _allowed(allowed: dict[str, Any], offered: dict[str, ToolInfo]) -> tuple[str, dict[str, ToolInfo]]:
    """`tool_choice: allowed_tools`: its mode ("auto" / "required"), and only its tools offered."""
    names = {entry["function"]["name"] for entry in allowed["tools"]}
    return allowed["mode"], {name: info for name, info in offered.items() if name in names}


def _auto(
    facts: Facts,
    text: str,
    offered: dict[str, ToolInfo],
    rules: Rules,
    messages: list[dict[str, Any]] | None = None,
    prepared: ToolSet | None = None,
) -> Decision:
    hard = next((d for d in facts.declines if not d.only_if_nothing_to_call), None) if facts.declines else None
    if hard is not None and (still := next((d for d in facts.declines if d.calls_nothing), None)) is not None:
        return Decision(text=still.said(in_english(text)), order_id=facts.order_id)
    calls = () if hard else _direct_calls(text, offered, facts, rules, messages) or _intent_calls(facts, offered, rules)
    if (
        len(calls) == 1
        and calls[0].name not in rules.ruled_tools
        and (asked := _named_asks(calls[0], text, offered, facts, rules))
    ):
        if (known := _known(calls[0], text, offered, facts, rules, messages or [])) is None:
            return Decision(text=asked)
        calls = (known,)
    if not calls and offered and (prepared is None or prepared.picks_from(rules)) and not _tells(text, rules, messages):
        context = _system_text(messages or [])
        calls = _generic_calls(text, offered, facts, rules, context, prepared)
        if not facts.declines and messages:
            if calls:
                calls, text = _answering(calls, text, offered, facts, rules, context, prepared, messages)
                calls = _carried(calls, text, offered, facts, rules, messages)
            else:
                calls = _follow_up_calls(text, offered, facts, rules, messages)
                if not calls and (answered := _answered(text, offered, facts, rules, context, prepared, messages)):
                    calls, text = answered  # "4" after "What should I use for party size?"
        if len(calls) == 1 and (asked := _asked(calls[0], text, offered, facts, rules)):
            known = _known(calls[0], text, offered, facts, rules, messages or [])
            if known is None:
                return Decision(text=asked)
            calls = (known,)
        if not calls and not facts.declines:
            calls = _search_first(text, offered, facts, rules, context, prepared)
    if calls:
        return Decision(None, calls, facts.order_id)
    if hard:
        return Decision(text=hard.said(in_english(text)), order_id=facts.order_id)
    return Decision(text=_text_reply(facts, offered, rules, in_english(text)), order_id=facts.order_id)


def _named_asks(call: Call, text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules) -> str | None:
    """What to ask instead of calling the one tool the text names (`_direct_calls`: "use get_weather please"
    names no city), as a picked tool's call asks (`_asked`); None when the call is not of an offered tool
    filled from the text (a JSON object after its name is the user's own arguments), or nothing is missing."""
    if call.name not in offered or (end := _mention(text, call.name)) is None or _json_after(text, end) is not None:
        return None
    return _asked(call, text, offered, facts, rules)


def _asked(call: Call, text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules) -> str | None:
    """What to ask the user instead of making `call` (`generic.missing`: a place, a currency, a timezone the
    text does not give), in the text's language; None when nothing is missing, or the rules have no such
    question (`[replies] ask_place`, `ask_place_en`, ...: a rules file without them calls as before)."""
    if ("?" in text or "？" in text or "吗" in text or "没" in text) and (said := _state_said(call, text, rules)):
        return said  # "is the front door locked?" to lock_door alone: no lock turned
    asked = missing(offered[call.name].parameters, text, facts, rules, call.arguments)
    if asked is None:
        return (
            _unnamed_question(call, text, offered, facts, rules)
            or _built_question(call, text, offered, facts, rules)
            or _unsaid_question(call, text, offered, facts, rules)
        )
    question = rules.replies.get(f"ask_{asked[0]}" if not in_english(text) else f"ask_{asked[0]}_en")
    if not question:
        return None
    field = " ".join(_FIELD_WORDS.findall(asked[1])).lower()
    return fill(question, rules, None, field=field, values=_offered_values(offered[call.name].parameters, asked[1]))


def _state_said(call: Call, text: str, rules: Rules) -> str | None:
    """What to say instead of a call that would change the state the text only asks about (`state_question`:
    "is the front door locked?" to lock_door), in the text's language; None for any other call."""
    if not asks_state(text) or not sets_state(call.name):
        return None
    said = rules.replies.get("ask_state_en" if in_english(text) else "ask_state")
    return fill(said, rules, None, field="", values=call.name) if said else None


def _unnamed_question(call: Call, text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules) -> str | None:
    """Which value to use, of a required choice the text names none of (`unnamed.unnamed_choice`: "open a ticket
    called Printer jammed" names no priority), in the text's language; None when every required choice is named or
    has a default (the usual case) or the rules have no such question (`ask_unnamed`)."""
    field = unnamed_choice(offered[call.name].parameters, text, facts, rules, call.arguments)
    question = rules.replies.get("ask_unnamed_en" if in_english(text) else "ask_unnamed") if field else None
    if not question or field is None:
        return None
    words = " ".join(_FIELD_WORDS.findall(field)).lower()
    return fill(question, rules, None, field=words, values=_offered_values(offered[call.name].parameters, field))


def _built_question(call: Call, text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules) -> str | None:
    """What to ask instead of a call whose required string was built from its pattern, the text giving none
    (`unpatterned.built_pattern`: "track my package" names no tracking number), in the text's language; None when
    every such string is the text's (the usual case) or the rules have no such question (`ask_field`)."""
    field = built_pattern(offered[call.name].parameters, text, facts, rules, call.arguments)
    question = rules.replies.get("ask_field_en" if in_english(text) else "ask_field") if field else None
    if not question or field is None:
        return None
    return fill(question, rules, None, field=" ".join(_FIELD_WORDS.findall(field)).lower(), values="")


def _unsaid_question(call: Call, text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules) -> str | None:
    """What to ask instead of a call whose required number the text never gives, or gives only outside its bounds
    (`unsaid.unsaid_number`: "book a table at Nobu" names no party size), in the text's language; None when every
    required number is given (the usual case) or the rules have no such question (`ask_range`, `ask_field`)."""
    english = in_english(text)
    unsaid = unsaid_number(offered[call.name].parameters, text, facts, rules, call.arguments, english)
    if unsaid is None:
        return None
    what, name, values = unsaid
    question = rules.replies.get(f"ask_{what}_en" if english else f"ask_{what}")
    if not question:
        return None
    return fill(question, rules, None, field=" ".join(_FIELD_WORDS.findall(name)).lower(), values=values)


def _offered_values(schema: Any, name: str) -> str:
    """The `enum` values of the top-level field `name` of a tool's `schema`, written for a question (at most
    `_MAX_OFFERED`, then "..."); "" for a field without one."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    sub = properties.get(name) if isinstance(properties, dict) else None
    values = sub.get("enum") if isinstance(sub, dict) else None
    if not isinstance(values, list):
        return ""
    written = [str(v) for v in values[:_MAX_OFFERED]]
    return ", ".join(written + ["..."] if len(values) > _MAX_OFFERED else written)


_MAX_OFFERED = 12


_FIELD_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[^\x00-\x7f]+")
"""The words of a field's name, for a question about it (`from_unit`, `pickupLocation`: "from unit", "pickup location")."""


def _known(
    call: Call, text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules, messages: list[dict[str, Any]]
) -> Call | None:
    """`call` with what it lacked taken from the previous turn's calls (`generic.carried`: their arguments of the
    same names), when that leaves nothing to ask: "Will it be hot tomorrow?" after get_weather(city=Paris) asks
    about Paris again, as a model reads it. None when the previous turn called nothing, or still something is
    missing: ask."""
    before: dict[str, Any] = {}
    for previous in _previous_calls(messages):
        for key, value in _arguments(previous["function"]["arguments"]).items():
            before.setdefault(key, value)
    if not before:
        return None
    known = Call(call.name, carried(offered[call.name].parameters, call.arguments, before, text, facts, rules))
    return None if known == call or _asked(known, text, offered, facts, rules) else known


def _tells(text: str, rules: Rules, messages: list[dict[str, Any]] | None) -> bool:
    """Whether the user's `text` is a statement, not a question (`[generic] statement`: "I was in Paris last
    week, the weather was nice."): no unruled tool is called for it. Not when it answers the assistant's
    question ("Which city are you in?" "I'm in Paris."), and a text longer than `_MAX_STATEMENT` is read as
    asking (a page pasted is no small talk, and is not searched through for a question)."""
    statement = rules.generic.statement
    if statement is None or len(text) > _MAX_STATEMENT or statement.match(text) is None:
        return False
    return not _answers_a_question(messages or [])


def _answers_a_question(messages: list[dict[str, Any]]) -> bool:
    """Whether the assistant's message right before the last user message asks a question (ends with ? or ？)."""
    for before, message in zip(messages[-2::-1], messages[::-1]):
        if message["role"] == "user":
            return before["role"] == "assistant" and content_text(before.get("content")).rstrip().endswith(("?", "？"))
    return False


_MAX_STATEMENT = 2_000


def _unruled(offered: dict[str, ToolInfo], rules: Rules) -> dict[str, ToolInfo]:
    """The offered tools no shop rule names (those are left to the rules)."""
    ruled = rules.ruled_tools
    return {name: info for name, info in offered.items() if name not in ruled}


def _answered(
    text: str,
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
    context: str,
    prepared: ToolSet | None,
    messages: list[dict[str, Any]],
) -> tuple[tuple[Call, ...], str] | None:
    """The calls of the user's previous question with this text, the answer to the assistant's question about it,
    after it ("book a table at Nobu" / "What should I use for party size?" / "4": a table for 4; "Which city?"
    "Paris"), and that joined text (what is still missing is asked of it); None when the assistant's message right
    before is none of the rules' questions (`_an_ask`), or the joined text picks no tool either."""
    before = messages[-2] if len(messages) > 1 and messages[-1]["role"] == "user" else None
    if before is None or before["role"] != "assistant" or before.get("tool_calls"):
        return None
    if not _an_ask(content_text(before.get("content")), rules):
        return None
    users = _last_user_texts(messages, 2)
    if len(users) < 2 or not users[1]:
        return None
    joined = f"{users[1]}\n{text}"
    calls = _generic_calls(joined, offered, facts._replace(text=joined), rules, context, prepared)
    return (calls, joined) if calls else None


def _answering(
    calls: tuple[Call, ...],
    text: str,
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
    context: str,
    prepared: ToolSet | None,
    messages: list[dict[str, Any]],
) -> tuple[tuple[Call, ...], str]:
    """The calls of the question the gateway asked about, with this text as its answer (`_answered`), when the answer
    alone picks the same tools: "high" after 'Which "priority" should I use: low, medium, high?' picks create_ticket
    by its enum's word, and was a ticket titled "high"; now the ticket asked about, of high priority. Else `calls`
    and `text` as they were (another question after the ask is its own: "weather in Paris?")."""
    answered = _answered(text, offered, facts, rules, context, prepared, messages)
    if answered is not None and {c.name for c in answered[0]} == {c.name for c in calls}:
        return answered
    return calls, text


def _an_ask(said: str, rules: Rules) -> bool:
    """Whether the assistant's `said` is one of the rules' questions (`[replies] ask_*`, its placeholders any text:
    "What should I use for "party size"? …", "请告诉我“party size”应该填什么…"), not any text with a question mark
    (the greeting's "How can I help?" asks about nothing a tool takes): it starts with a question's text before its
    first placeholder, ends with the text after its last, and holds the texts between in order."""
    kept = _ASKS.get(id(rules))
    if kept is None or kept[0] is not rules:
        asks = [_PLACEHOLDER.split(t) for k, t in rules.replies.items() if k.startswith("ask_")]
        by_first: dict[str, list[list[str]]] = {}
        for parts in asks:  # kept by the first character a filled question starts with ("" for a placeholder)
            by_first.setdefault(parts[0][:1], []).append(parts)
        kept = _ASKS[id(rules)] = (rules, by_first)
        while len(_ASKS) > _MAX_RULES:
            _ASKS.pop(next(iter(_ASKS)))
    candidates = kept[1].get(said[:1], [])
    if "" in kept[1]:
        candidates = candidates + kept[1][""]
    return any(_filled_from(said, parts) for parts in candidates)


_ASKS: dict[int, tuple[Rules, dict[str, list[list[str]]]]] = {}
"""Each rules' questions cut at their placeholders (`_an_ask`), by the rules' id (the rules kept beside: an id reused
by other rules is read again)."""
_MAX_RULES = 8


def _filled_from(said: str, parts: list[str]) -> bool:
    """Whether `said` is the texts `parts` in order with anything between them (a template filled)."""
    if len(parts) == 1:
        return said == parts[0]
    if not said.startswith(parts[0]) or not said.endswith(parts[-1]) or len(said) < len(parts[0]) + len(parts[-1]):
        return False
    at = len(parts[0])
    for part in parts[1:-1]:
        at = said.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return at <= len(said) - len(parts[-1])


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _generic_calls(
    text: str,
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
    context: str,
    prepared: ToolSet | None = None,
) -> tuple[Call, ...]:
    """A call of the best keyword match among the unruled `offered` tools (`prepared`: the
    request's whole tool list read once; `offered` may be a part of it)."""
    also = max(rules.generic.min_score, rules.generic.clause_min_score) if rules.generic.clauses else 0
    if prepared is not None:
        among = None if offered is prepared.offered else set(offered)

        def picked(part: str, least: int | None, also: int = 0) -> tuple[str | None, int]:
            return prepared.picks(part, context, rules, among, least, also)
    else:
        unruled = _unruled(offered, rules)

        def picked(part: str, least: int | None, also: int = 0) -> tuple[str | None, int]:
            return picks(part, unruled, context, rules, least, also)

    name, contenders = picked(text, None, also)
    if name is None:
        return ()
    several = _clause_calls(text, picked, offered, facts, rules, context) if contenders > 1 else ()
    if several:
        return several
    schema = offered[name].parameters
    arguments = fill_arguments(schema, text, facts, rules, context=context)
    made = listed_calls(schema, text, facts, rules, arguments, context=context)
    if len(made) == 1 and (repeated := _repeated_calls(schema, text, facts, rules, context, name, picked)):
        made = repeated
    return tuple(Call(name, a) for a in made)


def _repeated_calls(
    schema: Any,
    text: str,
    facts: Facts,
    rules: Rules,
    context: str,
    name: str = "",
    picked: Callable[[str, int | None], tuple[str | None, int]] | None = None,
) -> list[dict[str, Any]]:
    """The arguments of one call of the same tool for each clause of the text (`[generic] clauses`) that answers
    by itself every required field of it asking for a value, with two values at least (`generic.answered`; so a
    tool of two required fields at least, a `$ref` root or an `allOf` one's aside):
    "convert 10 usd to eur and 20 gbp to jpy", "把10美元换成欧元，再把20英镑换成日元" are two conversions, each
    filled from its clause (`generic.fill_clause`). None when fewer than two clauses do (the usual case: one
    clause; "convert 10 usd to eur and gbp" leaves its second without an amount; a list of places of one value
    each is `generic.listed_calls'`), or the text is longer than `_MAX_CLAUSE_TEXT`. A tool of one required field
    asking for a place (`generic.asks_a_place`) is called for each clause that names its own place and picks the
    tool by itself (`picked`, the tool `name`): "is it sunny in Madrid and windy in Lisbon?" is two forecasts;
    "the weather in Paris and the time in Tokyo" with no clock offered is one, Tokyo's clause asks no weather."""
    required = schema.get("required") if isinstance(schema, dict) else None
    if not isinstance(required, list) or not required:  # the usual: a tool of no required field
        return []
    clauses = rules.generic.clauses
    if clauses is None or len(text) > _MAX_CLAUSE_TEXT or clauses.search(text) is None:  # the usual: one clause
        return []
    least = 2 if len(required) > 1 else 1 if picked is not None and asks_a_place(schema, rules) else 0
    if not least:
        return []
    parts = [p for p in clauses.split(text, _MAX_CLAUSES)[:_MAX_CLAUSES] if p and not p.isspace()]
    whole: list[str] = []
    for k, part in enumerate(parts):
        if len(whole) + len(parts) - k < 2:  # too few clauses left to make two calls: the rest is not read
            return []
        if (
            (found := answered(schema, part, rules))[0]
            and found[1] >= least
            and (least > 1 or picked is None or picked(part, None)[0] == name)
        ):
            whole.append(part)
    if len(whole) < 2:
        return []
    made: list[dict[str, Any]] = []
    for part in whole:
        arguments = fill_clause(schema, part, text, facts, rules, context=context)
        if arguments is None:
            return []
        if arguments not in made:  # the same question asked twice is one call
            made.append(arguments)
    return made if len(made) > 1 else []


def _clause_calls(
    text: str,
    picked: Callable[[str, int | None], tuple[str | None, int]],
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
    context: str,
) -> tuple[Call, ...]:
    """One call for each tool the text's clauses pick (`[generic] clauses`: "the weather in Paris and the time
    in Tokyo", "查一下北京天气，再把100美元换成人民币"), when they pick two or more: each filled from its own
    clauses (`generic.fill_clause`: what they leave out from the whole text). A clause picks a tool only by
    `[generic] clause_min_score` (a word in its name, two in its description: "I need to leave for the
    airport" is no flight search), by a word of its own, not a hint alone ("exchange rate between USD and JPY":
    "JPY" is the rate's second currency, no conversion), and calls it only when the clause answers it (`fill_clause`: "I paid 20
    dollars for the book" gives a hotel no city; the clause that does answer is called alone, though the
    shared word tied the whole text's pick). None for a text of one clause, or whose clauses pick one tool
    ("北京和上海的天气"), or longer than `_MAX_CLAUSE_TEXT`: the whole text's pick is the call. Asked only
    when the whole text scores two tools that much (most questions: one), so a question of one tool is
    split and picked for no more."""
    clauses = rules.generic.clauses
    if clauses is None or len(text) > _MAX_CLAUSE_TEXT or clauses.search(text) is None:  # the usual: one clause
        return ()
    parts: dict[str, list[str]] = {}
    least = max(rules.generic.min_score, rules.generic.clause_min_score)
    hints = rules.generic.hints
    for part in clauses.split(text, _MAX_CLAUSES)[:_MAX_CLAUSES]:
        if not part or part.isspace() or (hints and hints.keys() >= set(search_terms(part, rules))):
            continue  # no clause, or only words a hint is about: a list's next value ("rate of USD and JPY")
        name = picked(part, least)[0]
        if name is not None:
            parts.setdefault(name, []).append(part)
    if len(parts) < 2:
        return ()
    calls = []
    for name, own in parts.items():
        schema = offered[name].parameters
        arguments = fill_clause(schema, " ".join(own), text, facts, rules, context=context)
        if (
            arguments is not None
        ):  # and one call more for each other place of a list: "weather and time in Paris and Rome"
            calls += [Call(name, a) for a in listed_calls(schema, text, facts, rules, arguments, context=context)]
    return tuple(calls)  # one: the other clause's tool was only a word shared (it beat the one asked for)


_MAX_CLAUSES = 16
"""The clauses of one message each picked for, at most (a text of thousands of commas is not thousands of picks)."""
_MAX_CLAUSE_TEXT = 2_000
"""A longer text (a page pasted, a long mail) is read as one question: its clauses are not picked for one by one."""


def _follow_up_calls(
    text: str, offered: dict[str, ToolInfo], facts: Facts, rules: Rules, messages: list[dict[str, Any]]
) -> tuple[Call, ...]:
    """A follow-up that names no tool ("And in London?", "and 250?", "那上海呢？") asks again
    what the previous turn asked: the calls the assistant made after the previous user message, of
    tools still offered, each again with the fields the new text gives a value replaced
    (`generic.follow_up`), the others as they were. SPEC's fake model reads the last user turn
    and the one before it (an order id alone borrows that turn's intents); this is the same carry-over
    for any tool, as a learner expects of a model. A text that gives no field of them a value calls
    nothing ("ok", "what about tomorrow?"), and so does a text not of a follow-up's elliptical form (`[generic]
    follow_up`: "I have 3 cats" after a conversion is a question of its own, not "and 3?")."""
    elliptical = rules.generic.follow_up
    if elliptical is None or elliptical.search(text) is None:
        return ()
    calls = []
    for call in _previous_calls(messages):  # checked by `check_request`: each has a name and arguments
        name = call["function"]["name"]
        if name in offered:
            previous = _arguments(call["function"]["arguments"])
            arguments = follow_up(offered[name].parameters, previous, text, facts, rules)
            if arguments is not None:
                calls.append(Call(name, arguments))
    return tuple(calls)


def _carried(
    picked: tuple[Call, ...],
    text: str,
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
    messages: list[dict[str, Any]],
) -> tuple[Call, ...]:
    """The keyword pick, or the follow-up's calls when the pick is a tool the previous turn called (and
    a follow-up's text changes it): "and in fahrenheit?" after get_weather(city=Paris) picks get_weather
    by its unit's value, and is get_weather(city=Paris, unit=fahrenheit), not a call whose city is the
    question. A follow-up that asks about another tool ("and the time in Tokyo?") keeps the pick. The
    previous turn's calls are looked at first: most picks are of a tool it did not call, and the text is
    then not read again."""
    previous = _previous_calls(messages)
    called = {call["function"]["name"] for call in previous}
    if not called:
        return picked
    if not {c.name for c in picked} <= called:
        return _shared(picked, previous, text, offered, facts, rules)
    again = _follow_up_calls(text, offered, facts, rules, messages)
    return again if again and {c.name for c in picked} <= {c.name for c in again} else picked


def _shared(
    picked: tuple[Call, ...],
    previous: list[dict[str, Any]],
    text: str,
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
) -> tuple[Call, ...]:
    """A follow-up (of the `[generic] follow_up` form) that picks another tool than the turn before called
    asks about the same things: each required field the text gives no value for takes the previous calls'
    argument of the same name ("and the air quality?" after get_weather(city=Paris) is get_air_quality(city=
    Paris), not a city that is the question). Any other text is a question of its own: the pick as it is."""
    elliptical = rules.generic.follow_up
    if elliptical is None or elliptical.search(text) is None:
        return picked
    before: dict[str, Any] = {}
    for call in previous:
        for key, value in _arguments(call["function"]["arguments"]).items():
            before.setdefault(key, value)
    return tuple(
        Call(c.name, carried(offered[c.name].parameters, c.arguments, before, text, facts, rules)) for c in picked
    )


def _previous_calls(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool calls of the last assistant message that made any between the last two user messages."""
    seen_user = False
    for message in reversed(messages):
        if message["role"] == "user":
            if seen_user:
                return []
            seen_user = True
        elif seen_user and (calls := _assistant_calls(message)):
            return calls
    return []


def _arguments(raw: Any) -> dict[str, Any]:
    """A call's arguments as sent back (a JSON object's text), or {} when they are no object."""
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _search_first(
    text: str,
    offered: dict[str, ToolInfo],
    facts: Facts,
    rules: Rules,
    context: str,
    prepared: ToolSet | None = None,
) -> tuple[Call, ...]:
    """Nothing else answers a question with search terms: a call of the first offered tool that finds
    tools (`generic.tool_finder`: LangChain4j's `tool_search_tool`), its arguments filled from the
    question (search first, as week 8 teaches; the tools it finds are called next, `_found_by_results`).
    `prepared`: the request's whole tool list read once, which answers for it once (`ToolSet.tool_finder`); then
    that answer is asked first, and a list without a finder (most lists) does not read the text at all."""
    if rules.generic.tool_finder is None:
        return ()
    if prepared is not None and offered is prepared.offered:
        name = prepared.tool_finder(rules)  # kept with the list: no work per request
        if name is None or not search_terms(text, rules):
            return ()
    elif not search_terms(text, rules) or (name := tool_finder(offered, rules)) is None:
        return ()  # a part of the list: its finder is searched for only when the text has terms
    return (Call(name, fill_arguments(offered[name].parameters, text, facts, rules, context=context)),)


def _found_by_results(
    messages: list[dict], offered: dict[str, ToolInfo], rules: Rules, prepared: ToolSet | None = None
) -> Decision | None:
    """A call of a tool that the trailing results name (a tool search found it) and that fits
    the user's question, if it was not called yet since the user spoke. The names are looked
    for first (most results name no tool), and what was called only then."""
    if prepared is not None and offered is prepared.offered and not prepared.picks_from(rules):
        return None  # the rules name every tool: none to find
    results = "\n".join(_trailing_results(messages))
    if not any(map(results.__contains__, offered)):  # the usual: no result names a tool (one C loop)
        return None
    ruled = rules.ruled_tools
    named = {
        n: info for n, info in offered.items() if n in results and n not in ruled and _mention(results, n) is not None
    }
    if named:
        called = _called_since_user(messages)
        named = {n: info for n, info in named.items() if n not in called}
    if not named:
        return None
    facts, text = _conversation_facts(messages, rules)
    calls = _generic_calls(text, named, facts, rules, _system_text(messages), prepared)
    return Decision(calls=calls, order_id=facts.order_id) if calls else None


def _called_since_user(messages: list[dict]) -> set[str]:
    names: set[str] = set()
    for message in reversed(messages):
        if message["role"] == "user":
            break
        names.update(call["function"]["name"] for call in _assistant_calls(message))
    return names


def _assistant_calls(message: dict) -> list[dict]:
    return message.get("tool_calls") or [] if message["role"] == "assistant" else []


def _system_text(messages: list[dict]) -> str:
    return "\n".join([content_text(m.get("content")) for m in messages if m["role"] in ("system", "developer")])


def _intent_calls(facts: Facts, offered: dict, rules: Rules) -> tuple[Call, ...]:
    """A call of each intent's tool that is offered (or the fallback's, given an order id). Without
    intents and an order id, nothing: the usual English question builds no list (a comprehension
    is a function call in Python 3.11)."""
    if not facts.intents and not facts.order_id:
        return ()
    tools = [i.tool for i in facts.intents if i.tool in offered and (facts.order_id or not i.needs_order_id)]
    if not tools and facts.order_id and rules.fallback_tool is not None and rules.fallback_tool in offered:
        tools = [rules.fallback_tool]
    return tuple([_call(tool, offered, facts, rules) for tool in dict.fromkeys(tools)])


def _direct_calls(
    text: str, offered: dict, facts: Facts, rules: Rules, messages: list[dict] | None = None
) -> tuple[Call, ...]:
    """Tools named literally in the text, in the order they are named: each with the JSON object
    after its name, else a shop tool with the facts (`_call`), any other tool with its arguments
    filled from the text as a picked one is (`fill_arguments`: "convert 10 to EUR" names
    `convert` and gives its `amount`)."""
    if not rules.direct_calls or not any(map(text.__contains__, offered)):  # most texts name no tool: one C loop
        return ()
    found = []
    for name in offered:
        if name in text and (end := _mention(text, name)) is not None:
            found.append((end, name))
    if not found:
        return ()
    found.sort()
    calls = []
    for k, (end, name) in enumerate(found):
        explicit = _json_after(text, end)
        if explicit is None and name not in rules.ruled_tools:
            context = _system_text(messages or [])
            calls.append(Call(name, _named_arguments(offered[name].parameters, text, found, k, facts, rules, context)))
        else:
            calls.append(_call(name, offered, facts, rules, explicit=explicit))
    return tuple(calls)


def _named_arguments(
    schema: Any, text: str, found: list[tuple[int, str]], k: int, facts: Facts, rules: Rules, context: str
) -> dict[str, Any]:
    """The arguments of the `k`-th of the tools `found` named in the text (where each mention ends, and its
    name): from the whole text when it names one, else from its own part, from its mention up to the next
    tool's ("calculate 2+2 and translate hello into French": calculate's expression is no French), as a
    clause's (`generic.fill_clause`; a part that gives none of what the tool asks is read as it is)."""
    if len(found) < 2:
        return fill_arguments(schema, text, facts, rules, context=context)
    start = 0 if k == 0 else found[k][0] - len(found[k][1])
    end = found[k + 1][0] - len(found[k + 1][1]) if k + 1 < len(found) else len(text)
    part = _without_joint(text[start:end], rules)
    made = fill_clause(schema, part, text, facts, rules, context=context)
    return made if made is not None else fill_arguments(schema, part, facts, rules, context=context)


def _without_joint(part: str, rules: Rules) -> str:
    """`part` without the clause joint it ends with (`[generic] clauses`: "calculate 2+2 and " is
    "calculate 2+2"), if it ends with one."""
    clauses = rules.generic.clauses
    joints = list(clauses.finditer(part)) if clauses is not None else []
    last = joints[-1] if joints else None
    return part[: last.start()] if last is not None and not part[last.end() :].strip() else part


def _apply_choice(
    choice: Any, decision: Decision, facts: Facts, offered: dict, rules: Rules, messages: list[dict] | None = None
) -> Decision:
    """`tool_choice` overrules; a forced call never lacks a required argument."""
    if isinstance(choice, dict):
        name = choice["function"]["name"]
        kept = [c for c in decision.calls if c.name == name] or [_call(name, offered, facts, rules)]
        calls: tuple[Call, ...] = (kept[0],)
    elif choice == "required":
        fallback = next((i.tool for i in facts.intents if i.tool in offered), next(iter(offered)))
        calls = decision.calls or (_call(fallback, offered, facts, rules),)
    else:
        return decision
    context = _system_text(messages or [])
    return Decision(calls=tuple(_complete(c, offered, facts, rules, context) for c in calls), order_id=facts.order_id)


def _complete(call: Call, offered: dict[str, ToolInfo], facts: Facts, rules: Rules, context: str) -> Call:
    info = offered.get(call.name)
    if info is None or not isinstance(call.arguments, dict):
        return call
    return Call(
        call.name, fill_arguments(info.parameters, facts.text, facts, rules, context=context, known=call.arguments)
    )


def _call(tool: str, offered: dict, facts: Facts, rules: Rules, explicit: dict[str, Any] | None = None) -> Call:
    if explicit is not None:
        return Call(tool, explicit)
    info = offered.get(tool)
    properties = info.parameters.get("properties") if info is not None else None
    arguments, refused = {}, []
    for name, schema in properties.items() if isinstance(properties, dict) else ():
        value = facts.get(rules.params.get(name, ""), rules)
        if value is None:
            continue
        if info is not None and takes(info.parameters, schema, value):  # the shop's own tools: each fact
            arguments[name] = value
        else:
            refused.append(name)
    if not refused:
        return Call(tool, arguments)
    return _refitted(tool, arguments, refused, info, facts, rules)


def _refitted(
    tool: str, kept: dict[str, Any], refused: list[str], info: ToolInfo | None, facts: Facts, rules: Rules
) -> Call:
    """A shop tool whose schema refuses some facts (`judge.takes`: a stranger's `query_order` whose
    `orderId` is an integer, an `asOf` of format `date-time`): the facts it takes kept, its required
    arguments and the `refused` ones filled from its schema as any other tool's are (`fill_arguments`)."""
    parameters = info.parameters if info is not None else {}
    required = parameters.get("required")
    schema = {**parameters, "required": [*(required if isinstance(required, list) else ()), *refused]}
    return Call(tool, fill_arguments(schema, facts.text, facts, rules, known=kept))


def _text_reply(facts: Facts, offered: dict, rules: Rules, english: bool = False) -> str:
    """The text for a message nothing is called for, in the user's language (`english`: an ASCII question reads
    the `_en` reply, a decline's `reply_en`, where the rules have one)."""
    if facts.intents and any(i.tool in offered and i.needs_order_id for i in facts.intents):
        return reply_text(rules, "ask_order_id", facts.order_id, english)
    if facts.intents or facts.order_id:
        return reply_text(rules, "cannot_lookup", facts.order_id, english)
    soft = next((d for d in facts.declines if d.only_if_nothing_to_call), None) if facts.declines else None
    return soft.said(english) if soft else reply_text(rules, "default", None, english)


# --- answering from tool results -------------------------------------------------------------


def answer_results(results: list[str], order_id: str | None, rules: Rules, english: bool = False) -> Decision:
    """One sentence per tool result (identical sentences once), from the `[[answer]]` rules; for a
    user who asked in English (`english`), each rule's `template_en` where it has one."""
    lines: dict[str, None] = {}
    for result in results:  # plain loops here: a generator is a function call in Python 3.11
        lines[_answer_one(result, order_id, rules, english)] = None
    return Decision(text="\n".join(lines), order_id=order_id)


def _results_answered(results: list[str], messages: list[dict], rules: Rules) -> Decision:
    """`answer_results` for the conversation `messages`: in English when the last user message is English
    (`language.in_english`, as `_asked` chooses the `_en` replies), with its order id (`_last_order_id`); the
    last two user messages found once for both."""
    users = _last_user_texts(messages, 2)
    return answer_results(results, _order_id_of(users, rules), rules, bool(users) and in_english(users[0]))


def _answer_one(result: str, order_id: str | None, rules: Rules, english: bool = False) -> str:
    answer = _template(result, rules)
    template = "{summary}"
    if answer is not None and english and answer.template_en is not None:
        template = answer.template_en
    elif answer is not None:
        template, english = answer.template, False  # an answer written in one language only: as written
    summary = summarise(result, rules, english=english)
    mentioned = find_order_id(result, rules)
    return fill(template, rules, order_id if mentioned is None else mentioned, english, summary=summary)


def _template(result: str, rules: Rules) -> Answer | None:
    """The first `[[answer]]` whose `when` matches the result (None if none): one holding any of its
    words, looked for with `in` (a regex of words reads a long text some 3 to 10 times slower), or,
    with no words, its regex (which always matches)."""
    for answer in rules.answers:
        if answer.words is None:
            if answer.when.search(result):
                return answer
        elif any(map(result.__contains__, answer.words)):  # the words looked for in one C loop
            return answer
    return None


def _template_plainly(result: str, rules: Rules) -> Answer | None:
    """The reference `_template` is held equal to: each `when` regex searched."""
    for answer in rules.answers:
        if answer.when.search(result):
            return answer
    return None


def summarise(result: str, rules: Rules, *, english: bool = False) -> str:
    """The first lines of a result, minus the sentences written for the model, joined by "；"; of a
    JSON object or array, its first items instead (`json_items`); `english`: joined by "; ", as an
    English template reads them.
    A result that a local `drop_sentences` does not match at all (one search, as long as the
    `splitlines` that reads it all) keeps every line whole (see `_kept_text`); a long one is not
    searched whole (`_SEARCHED_WHOLE`): its first lines are, one by one, as they are read."""
    joiner, empty = ("; ", "nothing came back") if english else ("；", "没有返回任何内容")
    items = json_items(result)  # a JSON result: its items, each kept whole, not its lines
    whole = bool(items) or (
        rules.drop_sentences_local and len(result) <= _SEARCHED_WHOLE and not rules.drop_sentences.search(result)
    )
    kept: list[str] = []
    for line in items or result.splitlines():
        text = line.strip() if whole else _kept_text(line.strip(), rules)
        if text:
            kept.append(text.rstrip("。；;"))
        if len(kept) == rules.summary_lines:
            break
    return joiner.join(kept) or empty


def json_items(result: str) -> list[str] | None:
    """A result that is a JSON object or array (most APIs', and MCP servers' structured results) as
    items a sentence can hold: an object's `key: value`, an array's values; a value that is itself an
    object reads `key=value, …`, deeper ones as compact JSON. None for any other result (read by lines:
    the lines of pretty-printed JSON are `{` and `"source": {`, which say nothing), or one longer
    than `_JSON_READ` (only its first lines are read)."""
    text = result.strip()
    if not text.startswith(("{", "[")) or len(text) > _JSON_READ:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict):
        return [f"{key}: {_inner(item)}" for key, item in value.items()]
    if isinstance(value, list):
        return [_inner(item) for item in value]
    return None


def _inner(value: Any) -> str:
    """One value of a JSON result, as `json_items` writes it."""
    if isinstance(value, dict):
        return ", ".join(f"{key}={_scalar(item)}" for key, item in value.items()) or "{}"
    if isinstance(value, list):
        return ", ".join(_scalar(item) for item in value) or "[]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    """A string as itself; anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_JSON_READ = 65_536
"""Up to this many characters a result that looks like JSON is read as JSON (`json_items`)."""


_SEARCHED_WHOLE = 2048
"""Up to this many characters, a result is searched whole for the sentences written for the model
(one search instead of one per line read); a longer one (a page, a file) only in the lines read."""


def _kept_text(line: str, rules: Rules) -> str:
    """A stripped line without the sentences written for the model (`_kept_sentences`), stripped.
    A line that a local `drop_sentences` does not match (`Rules.drop_sentences_local`) keeps
    every sentence: one search of the line, and it is its own answer (split into sentences, it
    has no blank one but an empty last, and joins back to itself)."""
    if rules.drop_sentences_local and not rules.drop_sentences.search(line):
        return line
    return _kept_sentences(line, rules)


def _kept_sentences(line: str, rules: Rules) -> str:
    """The reference: the line's non-blank sentences that `drop_sentences` does not match, joined, stripped."""
    return "".join([s for s in _SENTENCE_END.split(line) if s.strip() and not rules.drop_sentences.search(s)]).strip()


def fill(template: str, rules: Rules, order_id: str | None, english: bool = False, **extra: str) -> str:
    """A reply template with `{order}`, `{order_id}` (and `extra`) filled in; `{order}` in English (`order_ref`'s
    `with_id_en`, `without_id_en`) for an English template (`english`) where the rules have it."""
    ref = "with_id" if order_id else "without_id"
    order = rules.order_ref.get(f"{ref}_en", rules.order_ref[ref]) if english else rules.order_ref[ref]
    return template.format(order=order.format(order_id=order_id), order_id=order_id or "", **{"summary": "", **extra})


def reply_text(rules: Rules, key: str, order_id: str | None, english: bool = False) -> str:
    """The reply `key`, or its `_without_order` variant when there is no order id; for a user who asked in English
    (`english`), its `_en` variant where the rules have one (`cannot_lookup_without_order_en`)."""
    if order_id is None and f"{key}_without_order" in rules.replies:
        key = f"{key}_without_order"
    if english and f"{key}_en" in rules.replies:
        return fill(rules.replies[f"{key}_en"], rules, order_id, True)
    return fill(rules.replies[key], rules, order_id)


# --- reading the conversation ----------------------------------------------------------------


def content_text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list joined (None → "")."""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content)
    return content or ""


def _conversation_facts(messages: list[dict], rules: Rules) -> tuple[Facts, str]:
    """Facts of the last user turn; an order id alone borrows the previous turn's intents, and a
    question that needs an order id and names none the previous turn's order id ("SN… 发货了吗？",
    then "那它现在到哪了？")."""
    users = _last_user_texts(messages, 2)
    if not users:
        return Facts(), ""
    facts, text = affirmed_facts(users[0], rules)  # "don't cancel it, just check …": what is asked for
    if len(users) > 1:
        if facts.order_id and not facts.intents:
            facts = facts._replace(intents=read_text(users[1], rules).intents)
        elif facts.order_id is None and _needs_order_id(facts):
            facts = facts._replace(order_id=find_order_id(users[1], rules))
    return facts, text


def _needs_order_id(facts: Facts) -> bool:
    return any(intent.needs_order_id for intent in facts.intents)


def _last_user_texts(messages: list[dict], count: int) -> list[str]:
    """The texts of the last `count` user messages, the latest first."""
    texts: list[str] = []
    for message in reversed(messages):
        if message["role"] == "user":
            texts.append(content_text(message.get("content")))
            if len(texts) == count:
                break
    return texts


def _trailing_results(messages: list[dict]) -> list[str]:
    results = []
    for message in reversed(messages):
        if message["role"] != "tool":
            break
        results.append(content_text(message.get("content")))
    return results[::-1]


def _last_order_id(messages: list[dict], rules: Rules) -> str | None:
    """`_conversation_facts(messages, rules)[0].order_id`: the last user message's order id, else,
    when it asks what needs one, the previous user message's (its intents read only then)."""
    return _order_id_of(_last_user_texts(messages, 2), rules)


def _order_id_of(users: list[str], rules: Rules) -> str | None:
    """`_last_order_id` of the conversation whose last two user texts are `users` (the latest first)."""
    if not users:
        return None
    found = find_order_id(users[0], rules)
    if found is None and len(users) > 1 and _needs_order_id(read_text(users[0], rules)):
        return find_order_id(users[1], rules)
    return found


def _mention(text: str, name: str) -> int | None:
    """Where a literal mention of `name` (not part of a longer identifier: no ASCII letter, digit,
    `_` or `-` on either side) ends. One search in C: a Python loop over every occurrence took
    50 us a character for 64 names each found all through a long text, inside longer names."""
    if name not in text:  # the usual answer, without a regular expression
        return None
    found = re.search(rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])", text)
    return found.end() if found else None


def _json_after(text: str, end: int) -> dict[str, Any] | None:
    """A JSON object right after a tool's name (`name {...}`, `name({...})`, `name：{...}`)."""
    rest = text[end:].lstrip(" (:：")
    if not rest.startswith("{"):
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(rest)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and _shallow(value, 16) else None


def _shallow(value: Any, levels: int) -> bool:
    """At most `levels` of nesting (a deeper object would be trouble to echo back)."""
    if not isinstance(value, (dict, list)):
        return True
    children = value.values() if isinstance(value, dict) else value
    return levels > 0 and all(_shallow(child, levels - 1) for child in children)


# --- the prompt protocol (no `tools`: the tools are described in the system prompt) ----------


def _prose_tools(messages: list[dict], rules: Rules) -> dict[str, ToolInfo]:
    system = _system_text(messages)
    return {
        i.tool: ToolInfo("", {"type": "object", "properties": {p: {"type": "string"} for p in i.params}})
        for i in rules.intents
        if _mention(system, i.tool) is not None
    }


def _decide_prose(messages: list[dict], offered: dict, rules: Rules) -> Decision:
    previous = messages[-2] if len(messages) > 1 else {}
    if previous.get("role") == "assistant" and '{"tool"' in content_text(previous.get("content")):
        result = content_text(messages[-1].get("content"))  # the user turn carries the result
        return _results_answered([result], messages[:-1], rules)
    facts, text = _conversation_facts(messages, rules)
    decision = _auto(facts, text, offered, rules)
    if not decision.calls:
        return decision
    call = decision.calls[0]
    payload = json.dumps({"tool": call.name, "args": call.arguments}, ensure_ascii=False)
    return Decision(text=rules.prompt_prefix + payload, order_id=facts.order_id)
