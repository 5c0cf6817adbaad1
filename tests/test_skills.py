"""Agent Skills: loading, the three levels, skill-owned tools appearing only after activation,
and the activation surviving in memory (also in SQLite, after a "restart")."""

import datetime
import json
import logging
import re

import pytest
import yaml

from toolkit import data
from toolkit.chat.messages import SystemMessage, ToolCall, ToolResultMessage, UserMessage
from toolkit.chat.scripted import ScriptedModel, call
from toolkit.course.assistant import shop_registry
from toolkit.course.shop import load_shop
from toolkit.errors import ArgumentError, ConfigurationError, SkillError
from toolkit.loop.run import run_loop
from toolkit.loop.sources import ProviderRequest
from toolkit.memory.store import SqliteStore
from toolkit.memory.windows import ChatMemory
from toolkit.skills.course import course_skills, open_logistics_ticket
from toolkit.skills.folders import SKILL_FILE, load_skill, load_skills, parse_skill_md
from toolkit.skills.offer import ACTIVATED_SKILL, Skills

TODAY = datetime.date(2026, 10, 25)


def _skill(root, name, description="Does things.", body="Do it.", files=None):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / SKILL_FILE).write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")
    for path, text in (files or {}).items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    return folder


def _run(tool, **arguments):
    return tool.execute(ToolCall(id="c1", name=tool.name, arguments=json.dumps(arguments)))


# --- the course skills ---------------------------------------------------------------------


def test_the_course_ships_two_skills_one_owning_a_tool():
    skills = course_skills()
    assert sorted(skills.by_name) == ["logistics-complaint", "refund-escalation"]
    assert [t.name for t in skills.get("logistics-complaint").tools] == ["open_logistics_ticket"]
    assert skills.get("refund-escalation").tools == ()
    assert "templates/escalation-reply.md" in skills.get("refund-escalation").resources
    assert "references/carriers/sf-express.md" in skills.get("logistics-complaint").resources


def test_every_course_skill_follows_the_format():
    for folder in sorted(p for p in data.path("skills").iterdir() if p.is_dir()):
        text = (folder / SKILL_FILE).read_text(encoding="utf-8")
        meta = yaml.safe_load(text.split("---")[1])  # the trusted YAML parser agrees
        assert meta["name"] == folder.name and 0 < len(meta["description"]) <= 1024
        skill = load_skill(folder)
        mentioned = re.findall(r"`([\w./-]+\.md)`", skill.body)
        assert mentioned and set(mentioned) <= set(skill.resources), mentioned  # every file it names exists


def test_level_0_lists_names_and_descriptions_xml_escaped(tmp_path):
    _skill(tmp_path, "a-b", description="Use <b>this</b> & that")
    prompt = Skills.from_directory(tmp_path).system_prompt(intro="Skills:")
    assert prompt == (
        "Skills:\n<available_skills>\n  <skill>\n    <name>a-b</name>\n"
        "    <description>Use &lt;b&gt;this&lt;/b&gt; &amp; that</description>\n"
        "  </skill>\n</available_skills>"
    )


def test_level_1_returns_the_body_and_records_the_activation():
    activate, _ = course_skills().management_tools()
    result = _run(activate, name="refund-escalation")
    assert not result.is_error and result.content.startswith("# Refund escalation")
    assert result.attributes == {ACTIVATED_SKILL: "refund-escalation"}
    assert "attributes" not in json.dumps(result.to_openai())


def test_level_2_reads_nested_resources():
    activate, read = course_skills().management_tools()
    _run(activate, name="logistics-complaint")
    result = _run(read, skill="logistics-complaint", path="references/carriers/sf-express.md")
    assert result.content.startswith("# 顺丰速运") and result.attributes == {}
    assert _run(read, skill="logistics-complaint", path="./playbook/stuck-parcel.md").content.startswith("# Stuck")


def test_errors_list_what_is_available():
    activate, read = course_skills().management_tools()
    _run(activate, name="refund-escalation")
    assert _run(activate, name="refund").content == (
        "Tool 'activate_skill' failed: There is no skill named 'refund'. "
        "Available skills: logistics-complaint, refund-escalation."
    )
    assert _run(read, skill="refund-escalation", path="reply.md").content == (
        "Tool 'read_skill_resource' failed: Skill 'refund-escalation' has no resource 'reply.md'. "
        "Available resources: references/thresholds.md, templates/escalation-reply.md."
    )
    assert _run(read, skill="nope", path="x").content == (
        "Tool 'read_skill_resource' failed: There is no skill named 'nope'. "
        "Available skills: logistics-complaint, refund-escalation."
    )
    failed = _run(activate, name="nope")
    assert failed.is_error and failed.attributes == {}


@pytest.mark.parametrize(
    "arguments, problem",
    [
        ("{}", "- name: missing, expected a string"),
        ('{"name": 3}', "- name: got 3, expected a string"),
        ("[1]", "- arguments: got [1], expected a JSON object"),
    ],
)
def test_wrong_argument_types_go_back_to_the_model_naming_the_problem(arguments, problem):
    """An execution error, as the peer's `ToolExecutionException`: the model calls again (test_seeds_round4)."""
    activate, _ = course_skills().management_tools()
    result = activate.execute(ToolCall(id="c", name="activate_skill", arguments=arguments))
    assert result.is_error and result.content == (
        f"Tool 'activate_skill' failed: Invalid arguments for tool 'activate_skill':\n{problem}\n"
        "Fix the arguments and call activate_skill again."
    )


def test_management_tools_are_always_visible_and_name_the_skills():
    activate, read = course_skills().management_tools()
    for tool in (activate, read):
        assert tool.spec.metadata == {"always_visible": True}
    assert activate.spec.parameters["properties"]["name"]["enum"] == ["logistics-complaint", "refund-escalation"]


# --- skill-owned tools: dynamic, monotonic ---------------------------------------------------


def test_the_provider_is_dynamic_only_when_a_skill_owns_tools(tmp_path):
    _skill(tmp_path, "plain")
    assert Skills.from_directory(tmp_path).provider().dynamic is False
    assert course_skills().provider().dynamic is True


def test_skill_tools_appear_after_activation_and_stay():
    skills = course_skills()
    model = ScriptedModel(
        [
            call("activate_skill", {"name": "logistics-complaint"}),
            [
                call("read_skill_resource", skill="logistics-complaint", path="playbook/stuck-parcel.md"),
                call("query_logistics", orderId="SN202610200002"),
            ],
            call("open_logistics_ticket", orderId="SN202610200002", problem="stuck"),
            "已为您登记。",
        ]
    )
    messages = [SystemMessage(content=skills.system_prompt()), UserMessage(content="我的快递三天没动了 SN202610200002")]
    result = run_loop(model, messages, registry=shop_registry(load_shop(today=TODAY)), providers=[skills.provider()])
    sent = [set(r.tools) for r in model.requests]
    assert "open_logistics_ticket" not in sent[0] and {"activate_skill", "read_skill_resource"} <= sent[0]
    assert all("open_logistics_ticket" in s for s in sent[1:])
    assert all(a <= b for a, b in zip(sent, sent[1:]))  # never shrinks
    ticket = result.new_messages[-2]
    assert ticket.content.startswith("已创建物流投诉工单 LC") and not ticket.is_error


def test_a_new_call_restores_the_activation_from_memory(tmp_path):
    for store in (None, SqliteStore(tmp_path / "memory.db")):
        skills = course_skills()
        memory = ChatMemory("u1", store=store) if store else ChatMemory("u1")
        run_loop(
            ScriptedModel([call("activate_skill", {"name": "logistics-complaint"}), "好的"]),
            [UserMessage(content="投诉物流")],
            providers=[skills.provider()],
            memory=memory,
        )
        if store:
            store.close()
            memory = ChatMemory("u1", store=SqliteStore(tmp_path / "memory.db"))  # a restart
        model = ScriptedModel(["请提供订单号"])
        run_loop(model, [UserMessage(content="还是没动")], providers=[skills.provider()], memory=memory)
        assert "open_logistics_ticket" in model.requests[0].tools


def test_only_activations_of_known_skills_count():
    skills = course_skills()
    forged = ToolResultMessage(tool_call_id="x", content="", attributes={ACTIVATED_SKILL: "rm-rf"})
    real = ToolResultMessage(tool_call_id="y", content="", attributes={ACTIVATED_SKILL: "logistics-complaint"})
    odd = ToolResultMessage(tool_call_id="z", content="", attributes={ACTIVATED_SKILL: ["logistics-complaint"]})
    assert skills.activated([forged, odd, real, real]) == ["logistics-complaint"]
    assert [t.name for t in skills.provider().provide(ProviderRequest((forged,)))] == [
        "activate_skill",
        "read_skill_resource",
    ]


def test_the_skill_tool_validates_like_week_3():
    ticket = course_skills().get("logistics-complaint").tools[0]
    ok = _run(ticket, orderId="订单号：ＳＮ２０２６１０２００００２", problem="lost")  # lenient in
    assert ok.content.startswith("已创建物流投诉工单 LC") and "订单 SN202610200002，问题：包裹丢失" in ok.content
    assert _run(ticket, orderId="SN202610200002", problem="lost").content == ok.content  # deterministic
    with pytest.raises(ArgumentError, match="orderId"):  # strict out
        _run(ticket, orderId="SN12", problem="lost")


# --- loading: developer errors say what to fix --------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("no front matter", "SKILL.md must start with front matter between '---' lines"),
        ("---\nname: s\n---\nbody", "front matter needs a non-empty 'description'"),
        ("---\ndescription: d\n---\nbody", "front matter needs a non-empty 'name'"),
        ("---\nname: [s\n---\n", "its front matter is not valid YAML"),
        ("---\nname: S_1\ndescription: d\n---\n", "skill name 'S_1' must be lowercase letters, digits and hyphens"),
    ],
)
def test_a_broken_skill_md_is_a_configuration_error(text, message):
    with pytest.raises(ConfigurationError, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_skill_md(text)


def test_the_name_must_equal_the_folder(tmp_path):
    folder = _skill(tmp_path, "right")
    (folder / SKILL_FILE).write_text("---\nname: wrong\ndescription: d\n---\n")
    with pytest.raises(ConfigurationError, match="the name must equal the folder name. Fix: name it 'right'"):
        load_skill(folder)


def test_tools_for_a_missing_skill_or_a_taken_name_are_refused(tmp_path):
    _skill(tmp_path, "a")
    with pytest.raises(ConfigurationError, match=r"tools given for \['b'\], but there is no such skill"):
        load_skills(tmp_path, tools={"b": [open_logistics_ticket]})
    _skill(tmp_path, "c")
    with pytest.raises(ConfigurationError, match="is already provided by skill 'a'"):
        Skills.from_directory(tmp_path, tools={"a": [open_logistics_ticket], "c": [open_logistics_ticket]})


def test_folders_without_skill_md_hidden_binary_and_big_files_are_not_loaded(tmp_path, caplog):
    (tmp_path / "notes").mkdir()
    folder = _skill(tmp_path, "s", files={"ok.md": "fine", ".hidden": "x", ".git/config": "x"})
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    (folder / "big.txt").write_text("x" * (256 * 1024 + 1))
    with caplog.at_level(logging.WARNING, "toolkit.skills.folders"):
        skills = load_skills(tmp_path)
    assert [s.name for s in skills] == ["s"]
    assert list(skills[0].resources) == ["ok.md"]
    assert "not UTF-8 text" in caplog.text and "over 262144 bytes" in caplog.text


# --- issue 19.13, 19.9 and the hardening issue: one bad folder, strict arguments, links ------------


def test_one_malformed_skill_folder_rejects_that_skill_alone(tmp_path, caplog):
    _skill(tmp_path, "good")
    bad = _skill(tmp_path, "bad")
    (bad / SKILL_FILE).write_text("no front matter at all")
    with caplog.at_level(logging.WARNING, "toolkit.skills.folders"):
        skills = Skills.from_directory(tmp_path)
    assert list(skills.by_name) == ["good"]
    assert list(skills.rejected) == ["bad"]
    assert skills.rejected["bad"].endswith(
        "SKILL.md must start with front matter between '---' lines. Fix: add '---\\nname: …\\ndescription: …\\n---'"
    )
    assert "skill left out: skill folder " in caplog.text
    with pytest.raises(ConfigurationError, match=r"tools given for \['bad'\].*'bad' was rejected: skill folder"):
        load_skills(tmp_path, tools={"bad": [open_logistics_ticket]})


def test_activate_skill_refuses_arguments_it_does_not_have():
    activate, read = course_skills().management_tools()
    result = _run(activate, name="refund-escalation", force=True)
    assert (result.is_error, result.content, result.attributes) == (
        True,
        "Tool 'activate_skill' failed: Invalid arguments for tool 'activate_skill':\n"
        "- force: unknown field (got true), valid fields: name\n"
        "Fix the arguments and call activate_skill again.",
        {},  # not activated
    )
    result = _run(read, skill="refund-escalation", path="templates/escalation-reply.md", mode="rb")
    assert result.is_error and "- mode: unknown field" in result.content


def test_resources_are_read_only_after_activation():
    skills = course_skills()
    activate, read = skills.management_tools()
    before = _run(read, skill="refund-escalation", path="references/thresholds.md")
    assert before.is_error and before.content == (
        "Tool 'read_skill_resource' failed: Skill 'refund-escalation' is not active. Call activate_skill with "
        "name 'refund-escalation' first, then read the files its instructions mention."
    )
    _run(activate, name="refund-escalation")
    assert not _run(read, skill="refund-escalation", path="references/thresholds.md").is_error
    other = ToolCall(
        id="c2",
        name="read_skill_resource",
        arguments=json.dumps({"skill": "refund-escalation", "path": "references/thresholds.md"}),
    )
    from toolkit.tools.decorator import InvocationContext

    assert read.execute(other, InvocationContext(memory_id="someone-else")).is_error  # per conversation


def test_an_activation_in_memory_lets_a_new_call_read():
    skills = course_skills()
    activated = ToolResultMessage(
        tool_call_id="a", tool_name="activate_skill", content="...", attributes={ACTIVATED_SKILL: "refund-escalation"}
    )
    model = ScriptedModel(
        [call("read_skill_resource", skill="refund-escalation", path="references/thresholds.md"), "好"]
    )
    result = run_loop(model, [activated, UserMessage(content="阈值？")], providers=[skills.provider()])
    assert not result.new_messages[1].is_error


def test_a_skill_tool_clashing_with_a_registry_tool_is_an_error_at_the_start(tmp_path):
    """Issue 19.9: it used to be shadowed silently by the registry's tool after activation."""
    from toolkit.tools.decorator import tool

    @tool
    def query_order(orderId: str) -> str:
        """The skill's own order lookup."""
        return "skill"

    _skill(tmp_path, "orders")
    skills = Skills.from_directory(tmp_path, tools={"orders": [query_order]})
    model = ScriptedModel([call("activate_skill", {"name": "orders"}), call("query_order", orderId="SN1"), "好"])
    with pytest.raises(ConfigurationError) as caught:
        run_loop(
            model,
            [UserMessage(content="查订单")],
            registry=shop_registry(load_shop(today=TODAY)),
            providers=[skills.provider()],
        )
    assert str(caught.value).startswith("tool name 'query_order' is defined twice: by registry query_order@v1 and by ")
    assert model.requests == []


def test_a_symlinked_skill_folder_is_left_out_with_a_warning(tmp_path, caplog):
    real = _skill(tmp_path / "elsewhere", "linked")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "linked").symlink_to(real, target_is_directory=True)
    _skill(tmp_path / "skills", "plain")  # the others load: a folder of no skill at all is refused whole
    with caplog.at_level(logging.WARNING, "toolkit.skills.folders"):
        skills = Skills.from_directory(tmp_path / "skills")
    assert list(skills.by_name) == ["plain"]
    assert "linked" in skills.rejected and "is a symbolic link; links are never followed" in caplog.text


def test_a_symlinked_skill_md_is_reported_as_a_link(tmp_path):
    folder = _skill(tmp_path, "s")
    (tmp_path / "real.md").write_text("---\nname: s\ndescription: d\n---\nbody\n")
    (folder / SKILL_FILE).unlink()
    (folder / SKILL_FILE).symlink_to(tmp_path / "real.md")
    with pytest.raises(ConfigurationError) as caught:
        load_skill(folder)
    assert str(caught.value) == (
        f"skill folder {str(folder)!r}: its SKILL.md is a symbolic link (links are never followed). "
        "Fix: make it a plain file in the folder"
    )


def test_active_skills_are_kept_for_a_bounded_number_of_conversations(monkeypatch):
    from toolkit.skills import offer
    from toolkit.tools.decorator import InvocationContext

    monkeypatch.setattr(offer, "MAX_CONVERSATIONS", 3)
    skills = course_skills()
    activate, read = skills.management_tools()
    for user in ("u1", "u2", "u3", "u4"):
        activate.execute(
            ToolCall(id="a", name="activate_skill", arguments='{"name": "refund-escalation"}'),
            InvocationContext(memory_id=user),
        )
    assert not skills.is_active("refund-escalation", "u1")  # the oldest was forgotten
    assert all(skills.is_active("refund-escalation", u) for u in ("u2", "u3", "u4"))


def test_a_skills_tools_given_as_a_set_are_refused_as_everywhere_else():
    """`load_skill(folder, tools={a, b})` took the set in hash order, another in each process (the model reads a
    skill's tools in the order they join); `tools=` of the loop refuses it, and so does this."""
    from toolkit.errors import ToolDefinitionError
    from toolkit.tools.decorator import tool

    @tool
    def open_ticket(order_id: str) -> str:
        """Open a ticket."""
        return order_id

    @tool
    def close_ticket(order_id: str) -> str:
        """Close a ticket."""
        return order_id

    folder = next(p for p in sorted(data.path("skills").iterdir()) if p.is_dir())
    with pytest.raises(ToolDefinitionError) as caught:
        load_skill(folder, tools={open_ticket, close_ticket})
    assert str(caught.value) == (
        "tools=set object: tools= takes a list, and got a set, which has no order: its items would be read in another "
        "order in each process, and the model sent its tools in that order (its answers and a cassette's match would "
        "change with it). Fix: give a list, in the order you want: tools=[close_ticket, open_ticket]"
    )
    assert [t.spec.name for t in load_skill(folder, tools=[open_ticket, close_ticket]).tools] == [
        "open_ticket",
        "close_ticket",
    ]


def test_a_resource_named_in_another_unicode_form_is_found(tmp_path):
    import unicodedata

    nfd = unicodedata.normalize("NFD", "templates/réponse.md")  # as a Mac's zip or HFS+ writes a name
    folder = _skill(tmp_path, "replies", files={nfd: "R", unicodedata.normalize("NFD", "답장.md"): "K"})
    (folder / "big").mkdir()
    (folder / "big" / unicodedata.normalize("NFD", "é.md")).write_text("x" * 300_000)
    skill = load_skill(folder)
    assert skill.resource("templates/réponse.md") == "R" and skill.resource("답장.md") == "K"  # asked in NFC
    assert skill.resource(nfd) == "R"
    with pytest.raises(SkillError, match="does not serve 'big/é.md': it is over"):
        skill.resource("big/é.md")


def test_a_skill_named_in_another_unicode_form_is_activated_and_read(tmp_path):
    """A model may write `café` decomposed (`e` and an accent): it names the skill `café`, not an error
    listing a name that looks the same; the activation is recorded by the skill's own name."""
    import unicodedata

    _skill(tmp_path, "café", files={"menu.md": "espresso"})
    skills = Skills.from_directory(tmp_path)
    activate, read = skills.management_tools()
    nfd = unicodedata.normalize("NFD", "café")
    result = _run(activate, name=nfd)
    assert (result.is_error, result.content, result.attributes) == (False, "Do it.", {ACTIVATED_SKILL: "café"})
    assert skills.activated([result]) == ["café"]
    assert _run(read, skill=nfd, path="menu.md").content == "espresso"
    assert skills.get(nfd).name == "café"


@pytest.mark.parametrize("path", ["SKILL.md", "./SKILL.md"])
def test_reading_skill_md_as_a_resource_gives_its_instructions(tmp_path, path):
    """A resource that says "see SKILL.md" sends the model back to it: it gets the instructions activation
    gave (was: "has no resource 'SKILL.md'", of a skill that has one); still only once activated."""
    _skill(tmp_path, "pdf", body="# PDF\nRead forms.md.", files={"forms.md": "F", "sub/SKILL.md": "nested"})
    activate, read = Skills.from_directory(tmp_path).management_tools()
    assert _run(read, skill="pdf", path=path).content.startswith("Tool 'read_skill_resource' failed: Skill 'pdf' is")
    _run(activate, name="pdf")
    assert _run(read, skill="pdf", path=path).content == "# PDF\nRead forms.md."
    assert _run(read, skill="pdf", path="sub/SKILL.md").content == "nested"


def test_a_skill_whose_body_is_empty_says_so_on_activation_and_names_its_files(tmp_path):
    """A SKILL.md of front matter only: activation was an empty tool result (a gateway that makes it an
    empty text block answers 400; a model reads it as a failure), and nothing named its files."""
    folder = tmp_path / "forms"
    (folder / "templates").mkdir(parents=True)
    (folder / SKILL_FILE).write_text("---\nname: forms\ndescription: Fill in forms.\n---\n")
    (folder / "templates" / "a.md").write_text("A")
    (tmp_path / "bare").mkdir()
    (tmp_path / "bare" / SKILL_FILE).write_text("---\nname: bare\ndescription: Nothing more.\n---\n\n")
    skills = Skills.from_directory(tmp_path)
    activate, _ = skills.management_tools()
    assert skills.get("forms").body == ""
    forms = _run(activate, name="forms")
    assert (forms.content, forms.attributes) == (
        "Skill 'forms' is active; its SKILL.md holds no instructions beyond its description. "
        "Its files, for read_skill_resource: templates/a.md.",
        {ACTIVATED_SKILL: "forms"},
    )
    assert _run(activate, name="bare").content == (
        "Skill 'bare' is active; its SKILL.md holds no instructions beyond its description."
    )


def _demo(tmp_path):
    """A skill 'demo' of two files, one in a sub-folder, one whose name has capitals."""
    return load_skill(_skill(tmp_path, "demo", files={"templates/reply.md": "hello", "Notes.md": "notes"}))


@pytest.mark.parametrize(
    "path",
    [
        "templates\\reply.md",  # Windows' separator
        "templates//reply.md",
        "templates/./reply.md",
        "./templates/reply.md",
        "templates/../templates/reply.md",  # a '..' that stays inside
        "Templates/Reply.md",  # as a Mac's or Windows' disk reads it: the same skill everywhere
    ],
)
def test_a_resource_path_is_read_as_a_file_system_reads_it_relative_to_the_skill(tmp_path, path):
    """A path relative to the skill's folder (Agent Skills' rule) names its file as a disk would: `\\` a
    separator, `.` and empty parts skipped, `..` a step back inside, capitals as on a case-insensitive
    disk. Each was 'has no resource', listing the file asked for."""
    assert _demo(tmp_path).resource(path) == "hello"


AVAILABLE = "Available resources: Notes.md, templates/reply.md."


@pytest.mark.parametrize(
    "path, why",
    [
        (
            "/templates/reply.md",
            "paths are relative to the skill's folder, with no leading '/' or drive. Did you mean "
            "'templates/reply.md'?",
        ),
        (
            "C:\\demo\\Notes.md",
            "paths are relative to the skill's folder, with no leading '/' or drive. Did you mean 'Notes.md'?",
        ),
        ("/etc/passwd", "paths are relative to the skill's folder, with no leading '/' or drive."),
        ("demo/templates/reply.md", "paths are relative to the skill's folder. Did you mean 'templates/reply.md'?"),
        ("skills/demo/SKILL.md", "paths are relative to the skill's folder. Did you mean 'SKILL.md'?"),
        (
            "../demo/templates/reply.md",
            "paths are relative to the skill's folder, and '..' leads out of it. Did you mean 'templates/reply.md'?",
        ),
        ("templates/../../secret.txt", "paths are relative to the skill's folder, and '..' leads out of it."),
        ("templates/nope.md", ""),
    ],
)
def test_a_refused_resource_path_says_the_rule_and_the_path_meant(tmp_path, path, why):
    """A path that is absolute, leads out, or starts with the skill's own name is refused (the model never
    reads outside the folder), saying the rule and the relative path it meant when one names a file."""
    with pytest.raises(SkillError) as caught:
        _demo(tmp_path).resource(path)
    reason = f": {why}" if why else "."
    assert str(caught.value) == f"Skill 'demo' has no resource {path!r}{reason} {AVAILABLE}"


def test_a_path_matching_several_files_but_for_capitals_says_so(tmp_path):
    """On a case-sensitive disk `Notes.md` and `notes.md` are two files: `NOTES.md` names neither, and
    the error says why (was: 'has no resource', listing both)."""
    skill = load_skill(_skill(tmp_path, "pdf", files={"Notes.md": "N", "notes.md": "n"}))
    assert (skill.resource("Notes.md"), skill.resource("notes.md")) == ("N", "n")
    with pytest.raises(SkillError) as caught:
        skill.resource("NOTES.md")
    assert str(caught.value) == (
        "Skill 'pdf' has no resource 'NOTES.md': it differs only in capitals or Unicode form from 'Notes.md' and "
        "'notes.md'; write one exactly. Available resources: Notes.md, notes.md."
    )
