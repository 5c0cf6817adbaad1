"""`toolkit.chat.client`'s checks of its settings against what a stranger's environment may hold:
an `LLM_MODEL` with a newline, an escape sequence or a right-to-left override was printed as it was
(a second line in the probe's banner, a terminal's colours changed) and sent; a 100 KB
`LLM_BASE_URL` was quoted whole in its error. Each is one bounded line, credentials masked."""

import pytest

from toolkit.chat.client import ChatClient
from toolkit.errors import ConfigurationError

URL_FIX = "use one like http://127.0.0.1:8000/v1 or https://api.openai.com/v1 (check LLM_BASE_URL)"


@pytest.mark.parametrize(
    ("model", "shown", "bad"),
    [
        ("gpt\nX-Evil: 1\x1b[31m", "'gpt\\nX-Evil: 1\\x1b[31m'", "'\\n'"),
        ("gpt-4o\u202e", "'gpt-4o\\u202e'", "'\\u202e'"),
        ("gpt\u200b-4o", "'gpt\\u200b-4o'", "'\\u200b'"),
        ("x\x00" + "m" * 100_000, "'x\\x00" + "m" * 75 + "...'", "'\\x00'"),
    ],
)
def test_a_model_name_with_a_control_character_is_refused_in_one_bounded_line(model, shown, bad):
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(base_url="http://127.0.0.1:8000/v1", api_key="k", model=model)
    assert str(caught.value) == (
        f"ChatClient: model {shown} holds {bad}, a character no model's name has (a control or invisible "
        "character: pasted with it?); give the name alone, e.g. 'gpt-4o-mini' (check LLM_MODEL)"
    )


def test_a_model_name_of_letters_in_any_script_is_taken():
    assert ChatClient(base_url="http://127.0.0.1:8000/v1", api_key="k", model="通义千问-max").model == "通义千问-max"


LONG_LABEL = "has a host name that cannot be looked up (a part between dots is longer than 63 characters): each part \
between dots is 1-63 characters"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://" + "a" * 100_000 + "/v1", f"is not an http(s) URL with a host (URL too long); {URL_FIX}"),
        ("http://user:hunter2pw@" + "b" * 10_000 + ".com/v1", f"{LONG_LABEL}; {URL_FIX}"),
        (
            "http://user:hunter2pw@127.0.0.1:99999/" + "c" * 10_000,
            "has port 99999; a port is 1-65535 (check LLM_BASE_URL)",
        ),
    ],
)
def test_a_huge_base_url_is_quoted_cut_credentials_masked(url, said):
    with pytest.raises(ConfigurationError) as caught:
        ChatClient(base_url=url, api_key="k", model="m")
    shown = url.replace("user:hunter2pw", "user:***")[:197] + "..."
    assert str(caught.value) == f"ChatClient: base_url {shown!r} {said}"
