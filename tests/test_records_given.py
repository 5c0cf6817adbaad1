"""`toolkit.loop.records.LoopOptions` given the wrong shapes the first checks let through.
`request_extra={1: 2}` (a key that is no str) was taken, and failed at the first request with a raw
`TypeError: keywords must be strings` (the fields go in as keywords); it is a `ConfigurationError`
when the options are built."""

import pytest

from toolkit.chat.scripted import ScriptedModel
from toolkit.errors import ConfigurationError
from toolkit.loop.records import LoopOptions
from toolkit.loop.run import run_loop


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({1: 2}, "{1: 2}): its keys must be the request's field names, as str, not an int (1)"),
        ({"seed": 7, None: 1}, "{'seed': 7, None: 1}): its keys must be the request's field names, as str, not None"),
        ({b"seed": 7}, "{b'seed': 7}): its keys must be the request's field names, as str, not a bytes (b'seed')"),
    ],
)
def test_a_request_field_not_named_by_a_str_is_a_configuration_error(extra, said):
    with pytest.raises(ConfigurationError) as caught:
        LoopOptions(request_extra=extra)
    assert (
        str(caught.value)
        == f"LoopOptions(request_extra={said}; name each field with a str, e.g. request_extra={{'seed': 7}}"
    )


def test_request_fields_named_by_a_str_go_out():
    model = ScriptedModel(["hi"])
    run_loop(model, "q", tools=[], options=LoopOptions(request_extra={"seed": 7}))
    assert model.requests[0].extra == {"seed": 7}
