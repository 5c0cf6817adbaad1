"""What a notebook shows for the package's stateful objects (`repr`): no memory address (it
differs in every run, so a committed output could not be checked) and no secret the object was
given (a URL's password or token, a `--token` value, an `env` key). Each of these showed
`<toolkit.mcp.client.McpClient object at 0x7f...>`."""

import re

from toolkit.gateway.server import Gateway
from toolkit.loop.sources import ToolRegistry
from toolkit.mcp.client import McpClient
from toolkit.mcp.provider import McpToolProvider
from toolkit.skills.folders import Skill
from toolkit.skills.offer import Skills


def _quiet(text: str) -> str:
    assert not re.search(r"0x[0-9a-fA-F]{4,}", text), text
    for secret in ("pw", "abc", "s3cret", "k-123"):
        assert secret not in text.replace("http", ""), text
    return text


def test_an_mcp_client_shows_its_name_and_no_secret():
    over_http = McpClient("http://user:pw@127.0.0.1:9/mcp?token=abc")
    assert _quiet(repr(over_http)) == "McpClient(name='http://user:***@127.0.0.1:9/mcp?token=***')"
    started = McpClient.stdio("python", ["srv.py", "--token", "s3cret"], env={"API_KEY": "k-123"})
    assert _quiet(repr(started)) == "McpClient(name='python srv.py --token ***')"
    named = McpClient.stdio("python", ["srv.py", "--token", "s3cret"], name="time s3cret")
    assert _quiet(repr(named)) == "McpClient(name='time ***')"


def test_an_mcp_tool_provider_shows_its_clients():
    clients = [McpClient("http://127.0.0.1:9/mcp", name="geo"), McpClient("http://u:pw@127.0.0.1:8/mcp")]
    assert _quiet(repr(McpToolProvider(clients))) == (
        "McpToolProvider([McpClient(name='geo'), McpClient(name='http://u:***@127.0.0.1:8/mcp')])"
    )


def test_a_tool_registry_shows_its_versions_and_which_is_selected():
    registry = ToolRegistry()
    spec = {"name": "refund", "description": "Refund an order.", "parameters": {"type": "object"}}
    registry.register(spec, lambda call, context: "ok")
    registry.register(spec, lambda call, context: "ok", version="v2", select=True)
    registry.register({**spec, "name": "audit"}, lambda call, context: "ok")
    registry.register({**spec, "name": "undo"}, lambda call, context: "ok", select=False)
    assert _quiet(repr(registry)) == (
        "ToolRegistry(refund: v1, v2 (selected: v2); audit: v1 (selected: v1); undo: v1 (selected: none))"
    )
    assert repr(ToolRegistry()) == "ToolRegistry(empty)"


def test_a_gateway_shows_its_mode_and_faults_to_come():
    assert _quiet(repr(Gateway("B", faults=["rate_limit", None]))) == (
        "Gateway(mode='B', pending_faults=['rate_limit', None])"
    )
    assert repr(Gateway()) == "Gateway(mode='A', pending_faults=[])"


def test_skills_show_their_names():
    skills = Skills([Skill(name="pdf", description="Read PDFs.", body="Use pdftotext.")])
    assert _quiet(repr(skills)) == "Skills(['pdf'])"
