"""`parameters._add_default` writes a str, bool, None, finite float or short int default as it is,
without `to_jsonable_python` and `json.dumps`: the same property the general path writes, for every
such value and for the values next to them that must take the general path (too long integers,
NaN, infinities, subclasses)."""

import enum
import json
import math
import pathlib
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import to_jsonable_python

from toolkit.tools.parameters import _SAFE_INT, _add_default, _plain_json
from toolkit.tools.set_order import holds_set, sets_sorted


def general(default):
    """`_add_default`'s general path, as it was before the plain values were answered apart."""
    prop = {}
    try:
        value = to_jsonable_python(default)
        json.dumps(value, allow_nan=False)
    except Exception:
        return prop
    prop["default"] = value
    return prop


class Size(enum.Enum):
    S = "s"


class Word(str):
    pass


EDGES = [
    0,
    -1,
    _SAFE_INT - 1,
    -_SAFE_INT + 1,
    _SAFE_INT,
    -_SAFE_INT,
    10**5000,
    -(10**5000),
    True,
    False,
    None,
    "",
    "\udce9",
    "名前",
    0.0,
    -0.0,
    1e308,
    math.inf,
    -math.inf,
    math.nan,
    sys.float_info.min,
    Size.S,
    Word("w"),
]

scalars = st.one_of(
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),
    st.sampled_from(EDGES),
)


@given(scalars)
def test_the_plain_path_writes_what_the_general_path_writes(default):
    prop = {}
    _add_default(prop, default)
    assert prop == general(default)
    if prop:
        assert type(prop["default"]) is type(general(default)["default"])


def test_every_edge_agrees_and_only_plain_values_skip_the_general_path():
    for default in EDGES:
        prop = {}
        _add_default(prop, default)
        assert prop == general(default), default
    plain = [d for d in EDGES if _plain_json(d)]
    assert not any(type(d) in (Size, Word) for d in plain)
    assert not any(type(d) is int and abs(d) >= _SAFE_INT for d in plain)
    assert not any(isinstance(d, float) and not math.isfinite(d) for d in plain)


def test_a_default_that_is_a_secret_stays_out_of_the_schema_the_model_reads(monkeypatch):
    """`def query(sql, password="…", dsn="postgres://u:pw@db")`: pydantic writes every default into
    the schema, and the schema goes to the model with every request. A text default under a secret
    name, or one `redact.scrub_secrets` masks (a key of a known format, a URL's password, a secret
    environment variable's value), stays out; the parameter stays optional and the tool gets it."""
    from toolkit.chat.messages import ToolCall
    from toolkit.tools.execute import tools_from
    from toolkit.tools.reflect import reflect

    monkeypatch.setenv("TOOLKIT_TEST_DB_PASS", "Env-pw-4411")

    def query(
        sql: str,
        password: str = "Hunter2-db-pw",
        dsn: str = "postgres://u:pw9911@db/x",
        env_pw: str = "Env-pw-4411",
        key: str = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234",
        page_token: str = "",
        limit: int = 10,
        region: str = "eu",
    ) -> str:
        return f"{password} {dsn} {env_pw} {key}"

    properties = reflect(query).spec.parameters["properties"]
    assert {name: prop.get("default") for name, prop in properties.items()} == {
        "sql": None, "password": None, "dsn": None, "env_pw": None, "key": None,
        "page_token": "", "limit": 10, "region": "eu",
    }  # fmt: skip
    assert reflect(query).spec.parameters["required"] == ["sql"]
    call = ToolCall(id="c1", name="query", arguments='{"sql": "x"}')
    assert tools_from(query)[0].execute(call).content == (
        "Hunter2-db-pw postgres://u:pw9911@db/x Env-pw-4411 sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234"
    )


def test_a_secret_default_of_a_models_field_stays_out_of_the_schema_too():
    """The same rule for a field of a model, dataclass or TypedDict a parameter takes (its `$defs`)."""
    import dataclasses

    from pydantic import BaseModel

    from toolkit.tools.reflect import reflect

    class Db(BaseModel):
        host: str = "db.local"
        password: str = "Hunter2-db-pw"

    @dataclasses.dataclass
    class Api:
        url: str = "https://api.example.com"
        token: str = "tok-abc-998877"

    def connect(db: Db, api: Api) -> str:
        return "ok"

    defs = reflect(connect).spec.parameters["$defs"]
    shown = {name: {f: p.get("default") for f, p in body["properties"].items()} for name, body in defs.items()}
    assert shown == {
        "Db": {"host": "db.local", "password": None},
        "Api": {"url": "https://api.example.com", "token": None},
    }


keys = st.one_of(st.text(max_size=3), st.sampled_from(["", "\udce9", "名前", Word("w"), 1, None, True, Size.S]))
containers = st.one_of(
    st.lists(scalars, max_size=4),
    st.lists(scalars, max_size=4).map(tuple),
    st.dictionaries(keys, scalars, max_size=4),
    st.lists(st.lists(scalars, max_size=2), max_size=2),  # nested: the general path
    st.sampled_from([[], (), {}, [math.nan], (10**5000,), {"k": math.inf}, [Word("w")], {"k": Size.S}, [[]]])
    | st.sampled_from([["\udce9"], {"\udce9": 1}, {"名前": 1}, {"k": "\udce9"}]),
)


@given(containers)
@settings(max_examples=60)
def test_a_list_tuple_or_dict_of_plain_values_is_written_as_the_general_path_writes_it(default):
    """`_plain_container`: a list or tuple of plain values as a new list, a dict of `str` keys to them as a new dict,
    without the serializer and the encoder; anything else (nested, NaN inside, a key not exactly an ASCII `str`) by the
    general path. Either way the same property, of the same types."""
    prop = {}
    _add_default(prop, default)
    expected = general(default)
    assert prop == expected
    if prop:
        assert type(prop["default"]) is type(expected["default"])
        assert prop["default"] is not default  # a copy: the schema never holds the function's own default
        if isinstance(default, dict):
            assert [type(key) for key in prop["default"]] == [type(key) for key in expected["default"]]
            assert list(prop["default"]) == list(expected["default"])  # the order too


def test_only_containers_of_plain_values_skip_the_general_path():
    from toolkit.tools.parameters import _plain_container

    assert _plain_container([1, "a", None, 1.5, True]) == [1, "a", None, 1.5, True]
    assert _plain_container((800, 600)) == [800, 600]
    assert _plain_container({"k": 1}) == {"k": 1}
    for default in (
        [[1]],
        [math.nan],
        (10**5000,),
        {1: "a"},
        {Word("w"): 1},
        {"\udce9": 1},
        {"k": Size.S},
        {1, 2},
        "ab",
        3,
    ):
        assert _plain_container(default) is None, default


class Nan(float, enum.Enum):
    NOT_A_NUMBER = math.nan


class Huge(enum.IntEnum):
    BIG = 10**5000


class Level(enum.IntEnum):
    LOW = 1


serialized = st.one_of(
    st.dates(),
    st.datetimes(),
    st.times(),
    st.timedeltas(),
    st.uuids(),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from([Size.S, Word("w"), Nan.NOT_A_NUMBER, Huge.BIG, Level.LOW]),
    st.sampled_from([pathlib.PurePosixPath("/tmp/a b"), pathlib.Path("名前"), b"\xff\x00", b"", bytearray(b"x")]),
    st.frozensets(st.integers(), max_size=3),
)


@given(serialized)
@settings(max_examples=80)
def test_a_value_the_serializer_writes_as_a_json_scalar_is_not_encoded_again(default):
    """A date, time, duration, UUID, Decimal, enum member, path or bytes: `to_jsonable_python` gives a
    JSON scalar, which `json.dumps` is not asked to write (`_plain_json` says it can); an enum whose value
    JSON cannot show (NaN, an integer of 5,000 digits) still takes `json.dumps`' refusal and stays out."""
    prop = {}
    _add_default(prop, default)
    expected = general(sets_sorted(default, by_alias=True) if holds_set(default) else default)
    assert prop == expected
    if prop:
        assert type(prop["default"]) is type(expected["default"])


def test_an_enum_default_json_cannot_show_stays_out_and_a_plain_one_is_its_value():
    for default, shown in (
        (Nan.NOT_A_NUMBER, {}),
        (Huge.BIG, {}),
        (Level.LOW, {"default": 1}),
        (Size.S, {"default": "s"}),
    ):
        prop = {}
        _add_default(prop, default)
        assert prop == shown, default
