"""Week 5's coercion table and its "where we differ from LangChain4j" list are data
(`toolkit.tools.coercion_table`); here every row runs through the executor, and every
non-canonical input the executor accepts elsewhere in the tests has a row of its kind."""

import json

import pytest
import test_arguments as cases
from pydantic import TypeAdapter

from toolkit.tools import coercion_table as table
from toolkit.tools.arguments import parse_arguments
from toolkit.tools.fast_schema import type_schema


@pytest.mark.parametrize("row", table.VALUES, ids=lambda r: f"{r.annotation!r}-{r.sent!r}"[:40])
def test_every_value_row_is_what_the_executor_does(row):
    assert table.outcome(row.annotation, row.sent) == (row.outcome, row.result)


@pytest.mark.parametrize("row", table.TEXTS, ids=lambda r: r.sent)
def test_every_text_row_is_what_the_parser_does(row):
    assert parse_arguments("t", row.sent) == row.read_as


@pytest.mark.parametrize("row", table.DIFFERENCES, ids=lambda d: d.case[:30])
def test_every_difference_shows_the_packages_side(row):
    assert table.outcome(row.annotation, row.sent, row.beside)[1] == row.result


LANGCHAIN4J_TAKES = [
    (str, "SN202610200001", {"refundAmount": 2999}, "runs: prepareArguments reads the parameters' names only"),
    (list[int], [1.5], {}, "[1]: Jackson's ACCEPT_FLOAT_AS_INT (on by default) truncates"),
    (float, "NaN", {}, "NaN: getDoubleValue's Double.parseDouble reads NaN and Infinity"),
]


@pytest.mark.parametrize("annotation, sent, beside, langchain4j", LANGCHAIN4J_TAKES, ids=lambda v: repr(v)[:20])
def test_every_input_langchain4j_takes_and_the_package_refuses_is_a_listed_difference(
    annotation, sent, beside, langchain4j
):
    """Week 5's list of differences must hold each input LangChain4j's `DefaultToolExecutor` takes and the
    package refuses (langchain4j/src/main/java/dev/langchain4j/service/tool/DefaultToolExecutor.java:
    `prepareArguments` gets `argumentsMap.get(parameterName)` for each parameter, so a stray key is never read;
    `coerceArgument` reads a collection or a POJO by `Json.fromJson(Json.toJson(argument), parameterType)`, whose
    mapper (langchain4j-core/.../internal/JacksonJsonCodec.java) enables FAIL_ON_UNKNOWN_PROPERTIES and
    ACCEPT_CASE_INSENSITIVE_ENUMS over Jackson's defaults; `getDoubleValue` is `Double.parseDouble`). Each case
    was run through that mapper configuration (jackson-databind 2.20.1; there `{"gift": "true"}` and `{"gift": 1}`
    fill a boolean field with true, the "value inside a list or a POJO" row). The list said an unknown field was
    "ignored" there, showing one inside a model, which that mapper refuses too."""
    assert table.outcome(annotation, sent, beside)[0] == table.REJECT
    shown = [(d.annotation, d.sent, dict(d.beside)) for d in table.DIFFERENCES]
    assert (annotation, sent, beside) in shown, f"LangChain4j: {langchain4j}; add a Difference row for it"


def _kind(annotation, sent):
    """(JSON kind of what was sent, schema kind of the type): the rule a row stands for."""
    schema, defs = type_schema(annotation)
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema:
        schema = next(s for s in schema["anyOf"] if s.get("type") != "null")
    target = "enum" if "enum" in schema or "const" in schema else schema.get("type", "any")
    sent_kind = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}
    return sent_kind.get(type(sent), "null"), target


def _canonical(annotation, sent, received):
    try:
        return TypeAdapter(annotation).validate_json(json.dumps(sent), strict=True) == received
    except Exception:
        return False


def test_every_accepted_non_canonical_input_has_a_row_of_its_kind():
    documented = {_kind(r.annotation, r.sent) for r in table.VALUES if r.outcome == table.ACCEPT}
    lenient = [(a, s) for a, s, received in cases.ACCEPTED if not _canonical(a, s, received)]
    assert len(lenient) >= 15  # the check has something to check
    missing = [(a, s) for a, s in lenient if _kind(a, s) not in documented]
    assert missing == []


def test_the_rendered_rows_are_the_table():
    rows = table.value_rows()
    assert len(rows) == len(table.VALUES)
    assert rows[0] == {
        "type": "int",
        "model sent": '"27"',
        "accepted?": "yes",
        "function receives / expected": "27",
        "why": table.VALUES[0].rule,
    }


def test_a_validator_is_found_by_its_annotation_object_and_choices_by_hash():
    """`validator_for` looks an annotation object up before hashing it (a `Literal` of many values
    hashes all of them); a string is matched among the choices by hash, unhashable ones in turn."""
    import enum
    from typing import Literal

    from toolkit.tools.coercion import validate_value, validator_for

    many = Literal[tuple(f"v{i}" for i in range(5000))]
    assert validator_for(many) is validator_for(many)
    assert validate_value(many, "V4999") == "v4999" and validate_value(many, "v7") == "v7"

    class Shape(enum.Enum):
        POINT = [0]
        LINE = "Line"

    assert validate_value(Shape, "line") is Shape.LINE
    assert validate_value(Shape, [0]) is Shape.POINT


def test_the_enum_row_says_what_langchain4j_does_since_1_18():
    """`DefaultToolExecutor.coerceArgument` retries `Enum.valueOf` with `toUpperCase(Locale.ROOT)`
    since LangChain4j 1.18 (#5778, "make enum tool-argument coercion locale-independent"); the row
    said the default locale, which only older 1.x versions used. Unicode upper-casing still turns
    "ſhipped" into SHIPPED there, which is the difference the row shows."""
    row = next(d for d in table.DIFFERENCES if d.case == "enum matching")
    assert row.langchain4j == "valueOf, then valueOf(toUpperCase(Locale.ROOT)) (the default locale before 1.18)"
    assert "ſhipped".upper() == "SHIPPED"  # what Java's toUpperCase(Locale.ROOT) does too
