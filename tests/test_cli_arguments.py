"""Argument types: a bad number is argparse's one-line usage error naming what is valid."""

import argparse

import pytest

from toolkit.cli.arguments import count, port, positive, seconds
from toolkit.cli.main import main


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("18083", 18083), ("65535", 65535)])
def test_port_accepts_0_to_65535(text, value):
    assert port(text) == value


@pytest.mark.parametrize("text", ["-1", "65536", "99999", "http", "", "1.5"])
def test_port_refuses_the_rest_with_what_is_valid(text):
    with pytest.raises(argparse.ArgumentTypeError) as info:
        port(text)
    assert str(info.value) == f"{text!r} is not a port: use a whole number from 0 to 65535 (0 = any free)"


def test_count_positive_and_seconds_say_what_is_valid():
    assert (count("0"), positive("1"), seconds("0"), seconds("2.5")) == (0, 1, 0.0, 2.5)
    for fn, text, message in [
        (count, "-3", "'-3' is not a count: use a whole number, 0 or more"),
        (positive, "0", "'0' is not allowed here: use a whole number, 1 or more"),
        (positive, "x", "'x' is not allowed here: use a whole number, 1 or more"),
        (seconds, "nan", "'nan' is not a duration: use a number of seconds, 0 or more"),
        (seconds, "inf", "'inf' is not a duration: use a number of seconds, 0 or more"),
        (seconds, "-1", "'-1' is not a duration: use a number of seconds, 0 or more"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            fn(text)
        assert str(info.value) == message


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        (["gateway", "--port", "99999"], "argument --port: '99999' is not a port"),
        (["mcp-server", "--http", "--port", "-1"], "argument --port: '-1' is not a port"),
        (["gateway", "--slow-delay", "nan"], "argument --slow-delay: 'nan' is not a duration"),
        (["gateway", "--retry-after", "-2"], "argument --retry-after: '-2' is not a count"),
        (["eval", "--concurrency", "0"], "argument --concurrency: '0' is not allowed here"),
        (["grade", "--timeout", "0", "x.ipynb"], "argument --timeout: '0' is not a time limit"),
        (["tools", "--timeout", "-5", "x.py"], "argument --timeout: '-5' is not a duration"),
        (["gateway", "--host", ""], "argument --host: '' is not a host: give a name or address, e.g. 127.0.0.1"),
        (["gateway", "--host", " "], "argument --host: ' ' is not a host"),
    ],
)
def test_a_bad_number_is_a_usage_error_before_anything_runs(argv, wanted, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv, prog="toolkit")
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert wanted in err and "Traceback" not in err
