"""An array asking for a list of facts takes every one the text writes: "quotes for AAPL, MSFT and NVDA" to
`get_quotes(symbols: list[str])` is ["AAPL", "MSFT", "NVDA"], "查一下 600519 和 000858" ["600519", "000858"], "close
tickets 101, 102 and 107" to `ticket_ids: list[int]` [101, 102, 107].

The filler gave an array of plain strings the user's search terms (["quotes", "aapl", "msft", "nvda"]: the tool's
own word and the tickers lower-cased) and an array of numbers the first number only. `facts_listed` reads the fact
the array's name or description asks for (`_Filler.wants_fact`: a ticker, an identifier, an email, a currency, a
timezone, a place, a date) and gives each value the text writes of it, in its order; for numbers, each number the
text writes outside a date or time within the items' bounds, when it writes two or more.
Left out: arrays of objects (each item is made from its schema), a list the text writes as a range ("tickets 101 to
107"), and a fact the array does not ask for by name or description (its items are the user's words, as before).
"""

from __future__ import annotations

from typing import Any

from toolkit.gateway.zones import zone_of

_Filler = Any
"""`generic._Filler`, which imports this module (named here, not imported: no module imports one that imports it)."""

_LISTED = frozenset(("identifier", "email", "url", "date", "uuid"))
"""Facts whose every value the text writes is one item (a ticker, a currency, a timezone and a place are read apart:
places as the list the text writes, "Paris, Rome and New York")."""


def facts_listed(filler: _Filler, name: str, schema: dict[str, Any]) -> list[str]:
    """Each value of the fact the string array `name` (of `schema`) asks for, as the text writes them; [] when it
    asks for none, or the text writes none (the caller fills the array as before)."""
    wanted = filler.wants_fact(name, schema)
    if wanted is None:
        return []
    if wanted == "ticker":
        return filler.tickers() or filler.fact_values("identifier")
    if wanted == "currency":
        return filler.currencies()
    if wanted == "timezone":  # "in Tokyo, London and New York": the zone of each listed place
        zones = filler.zones()
        listed = [z for z in map(zone_of, filler.listed()) if z is not None]
        return listed if len(listed) > len(zones) else zones
    if wanted == "place":
        return filler.listed()
    return filler.fact_values(wanted) if wanted in _LISTED else []


def numbers_listed(filler: _Filler, items: dict[str, Any], kind: str, read: Any) -> list[int | float]:
    """Each number the text writes outside a date or time (digits) that an item of `items` (of `kind`) may be, when
    it writes two or more ("tickets 101, 102 and 107"); else [] (one number: the item is made as before). `read`
    turns a match of the `number` fact into a number of `kind` within the items' bounds, or None."""
    pattern = filler.rules.generic.facts.get("number")
    if pattern is None:
        return []
    found = [read(m, items, kind) for m in pattern.finditer(filler.text) if not filler.in_fact(m.start())]
    numbers = list(dict.fromkeys(n for n in found if n is not None))
    return numbers if len(numbers) > 1 else []
