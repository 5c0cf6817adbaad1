"""`toolkit.mcp`: clients and providers given the wrong shapes, refused where they are made.

`McpClient(None)` (a number, bytes, a list of words, a class) failed only on connecting, with the SDK's
"does not support the asynchronous context manager protocol"; a str that is no URL (a command line)
likewise. `McpClient.stdio("python", "server.py")` read the str letter by letter (`python s e r v e r . p y`);
`from_command_line(None)` had `shlex` read the command from stdin, an unclosed quote was a raw
`ValueError`. `McpToolProvider(c for c in clients)` used the generator up checking it and kept no
client, silently; a set of clients, the `McpClient` class itself and a `clock` that is no function
were accepted and failed (or varied) later. Each is now a `ToolDefinitionError` naming the fix."""

import pytest

from toolkit.errors import ToolDefinitionError
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider

URL = "http://127.0.0.1:9/mcp"  # nothing is connected to


def said(make) -> str:
    with pytest.raises(ToolDefinitionError) as caught:
        make()
    return str(caught.value)


@pytest.mark.parametrize(
    ("server", "text"),
    [
        (None, "McpClient(NoneType): NoneType is no MCP server to connect to. Fix: give a URL (McpClient.http(url)), "
         "a command (McpClient.stdio(...)) or a server object"),
        (["python", "server.py"], "McpClient(list): list is no MCP server to connect to. Fix: for a command: "
         "McpClient.stdio(words[0], words[1:])"),
        (McpClient, "McpClient(the class McpClient): the class McpClient is no MCP server to connect to. Fix: give a "
         "URL (McpClient.http(url)), a command (McpClient.stdio(...)) or a server object"),
        ("python server.py", "McpClient('python server.py'): a str is the URL of a streamable-HTTP server "
         "(http://…/mcp). Fix: give the URL, or for a command to start: McpClient.from_command_line(...)"),
    ],
)  # fmt: skip
def test_what_is_no_server_is_refused_at_construction(server, text):
    assert said(lambda: McpClient(server)) == text


def test_a_url_with_a_password_is_masked_in_the_refusal():
    assert "hunter2" not in said(lambda: McpClient("ftp://me:hunter2@127.0.0.1/mcp"))


def test_stdio_args_as_a_str_is_refused_not_read_letter_by_letter():
    assert said(lambda: McpClient.stdio("python", "server.py")) == (
        "McpClient.stdio('python', str): args takes a list of arguments, and got a str, which would be read letter "
        "by letter. Fix: put it in a list: McpClient.stdio('python', ['server.py']), or give the whole line to "
        "McpClient.from_command_line(...)"
    )


def test_from_command_line_takes_a_str_that_splits():
    assert said(lambda: McpClient.from_command_line(None)) == (
        "McpClient.from_command_line(NoneType object): it takes the command line as one str, and got a NoneType. "
        'Fix: write it as a shell would, e.g. McpClient.from_command_line("python -m mcp_server_time"); for a list '
        "of words use McpClient.stdio(words[0], words[1:])"
    )
    assert said(lambda: McpClient.from_command_line('python "server.py')) == (
        "McpClient.from_command_line('python \"server.py'): the line cannot be split as a shell would (No closing "
        "quotation). Fix: close the quote, or give the words as a list: McpClient.stdio(command, [arg, ...])"
    )


def test_a_generator_of_clients_keeps_its_clients():
    client = McpClient(URL)
    assert McpToolProvider(c for c in [client]).clients == [client]


def test_a_set_a_class_and_a_clock_that_is_no_function_are_refused():
    client = McpClient(URL)
    assert said(lambda: McpToolProvider({client})) == (
        "McpToolProvider(set object): McpToolProvider takes a list of McpClient objects, and got a set, which has "
        "no order: the servers' tools would be offered in another order in each process. Fix: give a list, in the "
        "order you want"
    )
    assert said(lambda: McpToolProvider([McpClient])) == (
        "McpToolProvider([McpClient]): that is the class, not a client. Fix: make a client: McpClient(server), "
        "McpClient.stdio(...) or McpClient.http(url)"
    )
    assert said(lambda: McpToolProvider([client], clock=5)) == (
        "McpToolProvider(clock=5): clock is a function of no arguments returning seconds. Fix: leave it out "
        "(time.monotonic), or give one, e.g. clock=time.monotonic"
    )


@pytest.mark.parametrize(("name", "kind"), [(5, "an int"), (["time"], "a list"), ("  ", "a blank str")])
def test_a_name_that_is_no_str_is_refused_at_construction(name, kind):
    """An int went into logs and tool metadata as it was; a list failed raw (unhashable) when a provider left
    the server out; now refused where the client is made, for `stdio(...)` too."""
    text = (
        f"McpClient(name={name!r}): name is how logs, errors and tool metadata call the server, a str, and got "
        f"{kind}. Fix: give a word, e.g. name='time', or leave it out for one made from the server"
    )
    assert said(lambda: McpClient(URL, name=name)) == text
    assert said(lambda: McpClient.stdio("python", ["server.py"], name=name)) == text


def test_stdio_takes_paths_as_subprocess_does():
    """`McpClient.stdio(Path(...))` was a raw pydantic ValidationError ("Input should be a valid string");
    `subprocess` takes a path for the command and for each argument."""
    from pathlib import Path

    client = McpClient.stdio(Path("/usr/bin/python3"), [Path("server.py"), "--port", "8080"], cwd=Path("/tmp"))
    assert (client.server.command, client.server.args, client.name) == (
        "/usr/bin/python3",
        ["server.py", "--port", "8080"],
        "python3 server.py --port 8080",
    )


@pytest.mark.parametrize(
    ("make", "text"),
    [
        (lambda: McpClient.stdio("", []), "McpClient.stdio(''): command is the program to start, and got a blank "
         "str. Fix: name it, e.g. McpClient.stdio('python', ['server.py'])"),
        (lambda: McpClient.stdio(None), "McpClient.stdio(None): command is the program to start, a str or a path, "
         "and got a NoneType. Fix: name it, e.g. McpClient.stdio('python', ['server.py'])"),
        (lambda: McpClient.stdio("python", ["server.py", "--port", 8080]), "McpClient.stdio('python', [...]): "
         "each argument is a str (or a path), and args[2] is an int (8080). Fix: write it as a str, e.g. '8080'"),
        (lambda: McpClient.stdio("python", [None]), "McpClient.stdio('python', [...]): each argument is a str (or a "
         "path), and args[0] is a NoneType. Fix: write it as a str, e.g. 'None'"),
        (lambda: McpClient.stdio("python", env={"DEBUG": 1, "API_KEY": 12345678}), "McpClient.stdio('python', "
         "env={...}): env maps variable names to str values, and env['DEBUG'] is an int. Fix: write each value as a "
         "str, e.g. env={'DEBUG': '1'}"),
        (lambda: McpClient.stdio("python", env=["A=1"]), "McpClient.stdio('python', env=list): env maps variable "
         "names to str values, and got a list. Fix: give a dict, e.g. env={'DEBUG': '1'}"),
    ],
    ids=["blank", "none", "int-arg", "none-arg", "int-env", "env-list"],
)  # fmt: skip
def test_a_stdio_command_that_is_no_command_line_is_refused_in_words(make, text):
    """Each was a raw pydantic ValidationError from `StdioServerParameters` ("Input should be a valid
    string", a link to pydantic's site), or, for a blank command, "Permission denied: ''" on connecting."""
    assert said(make) == text
    assert "12345678" not in text  # an env value may be a secret: never shown


@pytest.mark.parametrize(
    ("make", "text"),
    [
        (lambda c: c.call_tool("t", '{"city": "Paris"}'), "McpClient.call_tool('t', str): arguments is a dict of "
         "the tool's arguments, and got a str. Fix: parse JSON text first: client.call_tool('t', json.loads(text))"),
        (lambda c: c.call_tool("t", ["Paris"]), "McpClient.call_tool('t', list): arguments is a dict of the tool's "
         "arguments, and got a list. Fix: give a dict of names to values, e.g. client.call_tool('t', {'city': "
         "'Paris'}), or {} for none"),
        (lambda c: c.call_tool(123, {}), "McpClient.call_tool(123): name is the tool's name as the server lists "
         "it, a str, and got an int. Fix: give the name, e.g. client.call_tool('get_current_time', {})"),
        (lambda c: c.call_tool("t", {}, timeout="5"), "McpClient.call_tool(timeout='5'): timeout is a finite "
         "number of seconds above 0. Fix: give a number, e.g. timeout=30"),
        (lambda c: c.call_tool("t", {}, timeout=-1), "McpClient.call_tool(timeout=-1): timeout is a finite number "
         "of seconds above 0. Fix: give a number, e.g. timeout=30"),
        (lambda c: c.list_tools(timeout=0), "McpClient.list_tools(timeout=0): timeout is a finite number of "
         "seconds above 0. Fix: give a number, e.g. timeout=30"),
    ],
    ids=["json-text", "list", "name-int", "timeout-str", "timeout-negative", "list-timeout-zero"],
)  # fmt: skip
def test_a_call_given_the_wrong_shapes_is_refused_before_anything_is_sent(make, text):
    """Arguments given as the model's JSON text, or a name that is no str, were sent and refused by
    the SDK as "MCP server 'time' broke the protocol: ValidationError …", blaming the server for the
    caller's slip; `timeout="5"` was a raw TypeError, `timeout=-1` "did not answer within -1 s"."""
    client = McpClient(URL)  # nothing listens there: no connection is tried
    assert said(lambda: make(client)) == text


def test_a_blank_command_line_is_refused_where_it_is_given():
    """`from_command_line("  ")` raised `McpConnectionError("empty MCP server command line")`: no
    server was tried, the slip is the caller's, and the error said neither where nor the fix."""
    assert said(lambda: McpClient.from_command_line("  ")) == (
        "McpClient.from_command_line('  '): the line holds no command. Fix: write the command line, e.g. "
        'McpClient.from_command_line("python -m mcp_server_time")'
    )


@pytest.mark.parametrize(
    ("url", "text"),
    [
        ("http://", "McpClient('http://'): the URL names no host. Fix: give one like http://127.0.0.1:8000/mcp"),
        (
            "http://127.0.0.1:99999/mcp",
            "McpClient('http://127.0.0.1:99999/mcp'): the URL's port is 99999, and a port is 1-65535. Fix: give one "
            "like http://127.0.0.1:8000/mcp",
        ),
        (
            "http://[::1/mcp",
            "McpClient('http://[::1/mcp'): the URL cannot be read (Invalid port: ':1'). Fix: give one like "
            "http://127.0.0.1:8000/mcp",
        ),
        (
            " http://127.0.0.1:8000/mcp",
            "McpClient(' http://127.0.0.1:8000/mcp'): the URL starts or ends with a space. Fix: give one like "
            "http://127.0.0.1:8000/mcp",
        ),
        (
            "http://mcp host/mcp",
            "McpClient('http://mcp host/mcp'): the URL's host cannot be looked up (it holds a space or a character "
            "written as %XX; a host name has letters, digits, '-' and '.'). Fix: give one like http://127.0.0.1:8000/mcp",
        ),
        (
            "http://mcp..example.com/mcp",
            "McpClient('http://mcp..example.com/mcp'): the URL's host cannot be looked up (a part between dots is "
            "empty): each part between dots is 1-63 characters. Fix: give one like http://127.0.0.1:8000/mcp",
        ),
    ],
)
def test_a_url_that_cannot_be_connected_to_is_refused_at_construction(url, text):
    """Each was taken, and failed on connecting as the server's failure: "cannot reach MCP server
    'http://': UnsupportedProtocol: Request URL is missing an 'http://' or 'https://' protocol" (it
    has one), "OverflowError: connect(): port must be 0-65535", "InvalidURL: Invalid port"; a space
    before the URL was refused as "a str is the URL of a streamable-HTTP server", quoting the URL
    without its space, so it read as right."""
    assert said(lambda: McpClient(url)) == text
    assert said(lambda: McpClient.http(url)) == text


def test_a_refused_url_s_password_is_masked():
    assert "hunter2" not in said(lambda: McpClient("http://me:hunter2@127.0.0.1:99999/mcp"))


def test_two_clients_of_one_name_are_refused():
    """Each server is known by its client's name (`left_out`, errors, tool metadata): two of one
    name (two copies of a server started alike) shared one `left_out` entry, so one server's
    failure hid the other's."""
    first, second = McpClient(URL, name="files"), McpClient("http://127.0.0.1:10/mcp", name="files")
    assert said(lambda: McpToolProvider([first, second])) == (
        "McpToolProvider([..., 'files', 'files']): two clients are named 'files', and a provider tells its servers "
        "apart by name (left_out, errors, tool metadata). Fix: name them apart, e.g. McpClient(..., name='files_2')"
    )
    assert said(lambda: McpToolProvider([first, first])) == (
        "McpToolProvider([..., 'files', 'files']): the client 'files' is given twice. Fix: give each client once"
    )
