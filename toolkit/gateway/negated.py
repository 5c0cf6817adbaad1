"""What a user asks NOT to be done, taken out of the text before a tool is picked for it.

"don't cancel it, just check order A-20202" asks for a look-up: the words "cancel" and "order" picked
`cancel_order` beside `get_order`, a call the user forbade. `affirmed(text, rules)` is the text without its
negated clauses (`[generic] negated`: from "don't", "do not", "no need to", "never mind", "I don't want to",
不要, 别, 不用 at a clause's start to the clause's end), read instead of the text as written. A text all
of whose clauses are negated asks for nothing: the rules' first that calls nothing (`calls_nothing`, "don't look
it up") answers it. Left out: a text whose negated clause holds such a rule is read as written ("不要查，…"
forbids every look-up, not one); a negation inside a clause ("check it but not cancel"); a value written only in
the negated clause ("do not cancel A-1, just look it up": A-1 is not read); "don't forget to …", "don't let me
forget …", which ask for the thing.
"""

from __future__ import annotations

import re

from toolkit.gateway.corrected import cancelled, corrected
from toolkit.gateway.rules import Facts, Rules, read_text

_CUE = re.compile(
    "n't|n’t|N'T|N’T|dont|Dont|DONT|do not|Do not|DO NOT|need to|Need to|NEED TO|never|Never|NEVER"
    "|不要|不用|不必|不需|无需|别"
    "|not|Not|NOT|mean|Mean|wait|Wait|sorry|Sorry|actually|Actually|make that|Make that|rather|我是说|我的意思是|不对|说错了|不是"
    "|forget|Forget|cancel that|Cancel that|scratch that|Scratch that|算了|没事了|不查了"
)
"""What every negated clause holds, and every correction (`toolkit.gateway.corrected`): a text without it is not
searched. Each branch starts with a letter of its
own, so the regex scans for those letters in C (a case-blind one compared every character: 3% of the gateway's
cost; a loop of `in` checks, 1.5%)."""
_MAX_TEXT = 2_000
"""A longer text (a page pasted) is read as written."""
_WORDED = re.compile(r"\w")


def affirmed(text: str, rules: Rules) -> str | None:
    """`text` without its negated clauses: `text` itself when none is (the usual), None when all of it is."""
    pattern = rules.generic.negated
    if pattern is None or len(text) > _MAX_TEXT or _CUE.search(text) is None or pattern.search(text) is None:
        return text
    kept = pattern.sub("", text)
    return kept if _WORDED.search(kept) is not None else None


def affirmed_facts(text: str, rules: Rules) -> tuple[Facts, str]:
    """The facts of what `text` asks for (`affirmed`) and that text. The text as written when a negated clause
    held a rule that calls nothing ("不要查天气，…": no look-up at all) the rest does not hold; when all of it is
    negated ("no need to check the weather", "never mind the stock price"), with the first rule that calls
    nothing added to its facts: nothing is asked for, and nothing is called."""
    if _CUE.search(text) is None:  # the usual: nothing negated
        return read_text(text, rules), text
    text = corrected(text, rules)  # "Paris, I mean Rome": Rome is asked about
    kept = None if cancelled(text) else affirmed(text, rules)  # "weather in Paris? actually no, never mind"
    if kept is text:
        return read_text(text, rules), text
    whole = read_text(text, rules)
    nothing = next((d for d in rules.declines if d.calls_nothing), None)
    if kept is None:
        if nothing is None or nothing in whole.declines:
            return whole, text
        return whole._replace(declines=(nothing, *whole.declines)), text
    facts = read_text(kept, rules)
    if any(d.calls_nothing for d in whole.declines) and not any(d.calls_nothing for d in facts.declines):
        return whole, text
    return facts, kept
