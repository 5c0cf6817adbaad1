"""Every text the loop itself writes for the model, in English (LangChain4j's defaults) and in
Chinese (the course: the shop, the model and the learner speak Chinese).

`LoopTexts` bundles them; `LoopOptions(texts=...)` picks one bundle (`EN` by default, `ZH` in
`COURSE`). Each template names its fields, so tests and notebooks can quote a text exactly:

==============  ==========================================  =============================
text            when                                         fields
==============  ==========================================  =============================
guard           a repeated successful call is not run again  tool
guard_handover  the model kept repeating guarded calls       (the hand-over answer)
not_run_limit   a reply beyond `max_round_trips`             limit
not_run         a call not started when another stopped it   tool, error
interrupted     the turn was interrupted before the call     error
                started
interrupted_    the turn was interrupted while the call ran  error
running         (its outcome is unknown)
timed_out       the call outlived `LoopOptions.tool_timeout`   tool, seconds
                (its outcome is unknown)
unfinished      an earlier turn ended (its process killed,   (none)
                its store failing) before recording the
                result: answered when the next turn starts
                (at once if memory refuses it twice)
unanswered      an earlier turn left its question unanswered  (none)
                (its request failed), and another follows:
                written between the two, as the assistant
unknown_tool    a name no tool has (`report_unknown_tool`)   tool, available
not_given       the repair text's "got" for an argument      (none)
                left out (`repair_phrases`)
unknown_field   its "expected" for an argument the tool      tool, fields, field
                does not have (`no_such_field`: no list)
rolled_back     a saga undid the call                        tool, failed
result_cut      after a result cut to `max_result_chars`     total, kept
                (`toolkit.loop.result_size`)
images_line     one line of the message carrying images      id, tool, count
images_pointer  added to a result whose images were passed   count
images_dropped  added to a result with images not passed on  items
image_item      one image not passed on                      n, why
image_why       why (a dict: url, data, format, size,        mime, size, limit
                count)
==============  ==========================================  =============================

A bundle of one's own (`dataclasses.replace(EN, interrupted="…{error}…")`, another language) is
checked when it is made: each text a str, each template formatting with its fields (`FIELDS`,
`IMAGE_WHY_FIELDS`), as `LoopOptions` checks its `repair_template`.

A number stands where no noun has to agree with it ("the limit on tool round trips (1)", not
"the limit of 1 tool round trips"): the English is right for 1 too, and Chinese has no plural.

The `images_*` texts are how a tool's images reach the model (`toolkit.loop.images`): tool
results carry text only, so one user message after the round's results carries them, one
`images_line` per call, and each result says where its images went.

`expected_zh` puts the argument checker's "expected …" phrases (`a string`, `an integer`,
`one of "a", "b"`, `a number >= 1`) into Chinese for the course's repair text; a phrase it
does not know (a custom validator's own words) passes through unchanged.

Leaves out: the texts tools write themselves (a tool's own error message), and the repair and
hand-over sentences, which are `LoopOptions` fields of their own (`repair_template`,
`handover_text`, `repair_handover_text`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from toolkit.chat.messages import ToolCall
from toolkit.errors import ArgumentProblem, ConfigurationError, UnknownToolError, shown_name
from toolkit.loop.result_size import CUT_NOTE
from toolkit.loop.saga import ROLLED_BACK_EN
from toolkit.unicode import cut

HANDOVER_ZH = "这个问题我暂时无法自动处理完，已经为你转接人工客服，请稍候。"
"""The round-limit hand-over (the week-3 course's ToolAgent: "已经为你转接人工客服")."""
REPAIR_HANDOVER_ZH = "这个问题需要人工确认：我没能拿到合法的参数，已经为你转接人工客服，请稍候。"
"""The hand-over after a second argument error (the week-3 course: degrade, "需要人工确认")."""
GUARD_HANDOVER_ZH = "我在重复查询同样的内容，这个问题需要人工处理，已经为你转接人工客服，请稍候。"
"""The hand-over after repeated guarded calls (the model keeps asking for what it already has)."""
REPAIR_EN = "{error}\nIf you cannot get a valid value, ask the user for it instead of calling {tool} again."


@dataclass(frozen=True)
class LoopTexts:
    """The loop's own model-facing texts (see the module docstring for when each is used)."""

    guard: str
    guard_handover: str
    not_run_limit: str
    not_run: str
    interrupted: str
    unknown_tool: str
    rolled_back: str
    images_line: str
    images_pointer: str
    images_dropped: str
    image_item: str
    image_why: Mapping[str, str]
    image_separator: str
    """Between two `image_item`s."""
    expected: Callable[[str], str] = str
    interrupted_running: str = (
        "Interrupted by {error} while it ran: its outcome is unknown (it may have done its work). "
        "Check before calling it again."
    )
    """How an argument error's "expected …" phrase is written in the repair text."""
    timed_out: str = (
        "Tool {tool} did not finish within {seconds} s: the loop stopped waiting for it, and it may still be "
        "running. Its outcome is unknown (it may have done its work). Check before calling it again."
    )
    """A call past `LoopOptions.tool_timeout` (`toolkit.loop.time_limit`), through the execution policy."""
    unfinished: str = (
        "Not completed: the turn that asked for this call ended before its result was recorded; its outcome is "
        "unknown (it may have done its work). Check before calling it again."
    )
    unanswered: str = "(No answer: the turn that asked this ended before the model replied.)"
    """Between a question no turn answered and the next one (`toolkit.loop.run`): not user after user."""
    not_given: str = "(not given)"
    """The repair text's "got" for an argument the model left out."""
    unknown_field: str = "{tool} takes only the fields {fields}; {field} is not one of its parameters: remove it"
    """The repair text's "expected" for an argument the tool does not have."""
    no_such_field: str = "{field} is not one of {tool}'s parameters: remove it"
    """The same, where the checker names no valid fields (a field inside a nested object)."""
    result_cut: str = CUT_NOTE
    """The line after a result cut to `LoopOptions.max_result_chars`: `total` and `kept` are its
    length and the characters kept, written with thousands separators (`toolkit.loop.result_size`)."""

    def __post_init__(self) -> None:
        """Each text must be a str, and each template must format with its fields (`FIELDS`): a
        translation that renamed one (`{erreur}`) or wrote a brace as text was a raw `KeyError` in
        the middle of a turn, when the text was first needed: at a Ctrl-C it replaced the interrupt
        and left the round's calls unanswered in memory."""
        _check_texts(self)

    def repair_phrases(self, tool: str, problem: ArgumentProblem) -> tuple[str, str]:
        """The repair text's `received` and `expected` for `problem`, worded by its kind: an
        argument left out was "got" nothing, and an argument the tool does not have is told to
        go (the checker's `expected` for it is the list of valid fields, not a format)."""
        if problem.kind == "unknown":
            text = self.unknown_field if problem.expected else self.no_such_field
            return problem.received, text.format(tool=tool, field=problem.field, fields=problem.expected)
        received = self.not_given if problem.kind == "missing" and not problem.received else problem.received
        return received, self.expected(problem.expected)

    def report_unknown_tool(self, error: Exception, call: ToolCall) -> str:
        """A policy for the unknown-tool channel in this language (feeds the name back)."""
        available = error.available if isinstance(error, UnknownToolError) else []
        return self.unknown_tool.format(tool=shown_name(call.name), available=", ".join(available) or "-")


FIELDS: dict[str, dict[str, object]] = {
    "guard": {"tool": "query_order"},
    "not_run_limit": {"limit": 5},
    "not_run": {"tool": "query_order", "error": "KeyboardInterrupt"},
    "interrupted": {"error": "KeyboardInterrupt"},
    "interrupted_running": {"error": "KeyboardInterrupt"},
    "timed_out": {"tool": "'query_order'", "seconds": "30"},
    "unknown_tool": {"tool": "'query_ordr'", "available": "query_order, cancel_order"},
    "rolled_back": {"tool": "book_hotel", "failed": "book_flight"},
    "images_line": {"id": "call_1", "tool": "screenshot", "count": 2},
    "images_pointer": {"count": 2},
    "images_dropped": {"items": "image 1 (over the limit on images per round (4))"},
    "image_item": {"n": 1, "why": "over the limit on images per round (4)"},
    "unknown_field": {"tool": "query_order", "fields": "orderId", "field": "order"},
    "no_such_field": {"field": "order", "tool": "query_order"},
    "result_cut": {"total": "1,000,000", "kept": "100,000"},
}
"""The fields each template of `LoopTexts` is formatted with (a sample value of each); the other texts
are used as they are."""
IMAGE_WHY_FIELDS: dict[str, dict[str, object]] = {
    "url": {"mime": "image/tiff"},
    "data": {"mime": "image/tiff"},
    "format": {"mime": "image/tiff"},
    "size": {"size": "6.0 MB", "limit": "5.0 MB"},
    "count": {"limit": 4},
}
"""The same for the templates of `LoopTexts.image_why`, by key."""


def _check_texts(texts: LoopTexts) -> None:
    """Raise `ConfigurationError` for the first text of `texts` that is no str or whose template does
    not format with its fields (`LoopTexts.__post_init__`)."""
    for field in dataclasses.fields(texts):
        value = getattr(texts, field.name)
        if field.name == "image_why":
            _check_image_why(value)
        elif field.name != "expected":
            _check_text(field.name, value, FIELDS.get(field.name))


def _check_image_why(why: object) -> None:
    if not isinstance(why, Mapping) or set(why) != set(IMAGE_WHY_FIELDS):
        keys = ", ".join(map(repr, IMAGE_WHY_FIELDS))
        raise _bad_text(
            "image_why",
            why,
            f"it must be a mapping with the keys {keys}",
            "start from EN.image_why, e.g. {**EN.image_why, 'size': '...'}",
        )
    for key, fields in IMAGE_WHY_FIELDS.items():
        _check_text(f"image_why[{key!r}]", why[key], fields)


def _check_text(name: str, text: object, fields: dict[str, object] | None) -> None:
    """`text` is a str that formats with `fields` (None: it is used as it is)."""
    if type(text) is not str:
        raise _bad_text(name, text, "it must be a str", f"give the text (dataclasses.replace(EN, {name}=...))")
    if fields is None:
        return
    try:
        text.format(**fields)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
        problem = f"it has no field {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        names = "{" + "}, {".join(fields) + "}"
        raise _bad_text(
            name,
            text,
            f"it is formatted with {names}, and this one cannot be ({problem})",
            "use only those names in braces, and double a brace meant as text: {{ and }}",
        ) from None


def _bad_text(name: str, value: object, rule: str, fix: str) -> ConfigurationError:
    return ConfigurationError(f"LoopTexts({name}={cut(repr(value), 80, '...')}): {rule}; {fix}")


EN = LoopTexts(
    guard=(
        "You already called {tool} with these arguments earlier in this turn; its result is "
        "above. Use it instead of calling again."
    ),
    guard_handover="I keep repeating the same lookups; a person will take over this question.",
    not_run_limit="Not executed: the limit on tool round trips ({limit}) was reached.",
    not_run="Not run: another call of this round ({tool}) stopped the turn with {error}.",
    interrupted="Not completed: the turn was interrupted by {error}.",
    unknown_tool="There is no tool named {tool!r}. Available tools: {available}.",
    rolled_back=ROLLED_BACK_EN,
    images_line="Images returned by tool call {id} ({tool}): {count}",
    images_pointer="[images of this result passed on in the user message after the tool results: {count}]",
    images_dropped="[images of this result not passed on: {items}]",
    image_item="image {n} ({why})",
    image_why={
        "url": "not a data: or http(s):// URL",
        "data": "not a base64 data: URL with a media type",
        "format": "{mime} is not a format chat models take (png, jpeg, gif, webp)",
        "size": "{size}, over the limit of {limit}",
        "count": "over the limit on images per round ({limit})",
    },
    image_separator=", ",
)
"""English, as LangChain4j words them (the rolled-back text is LangChain4j's own)."""


_ZH_WORDS = {
    "a string": "字符串",
    "an integer": "整数",
    "a number": "数字",
    "a finite number": "有限的数字",
    "a number from -1.7e308 to 1.7e308 (this one is too large for a float)": (
        "-1.7e308 到 1.7e308 之间的数字（这个数太大，浮点数存不下）"
    ),
    "true or false": "true 或 false",
    "an array": "数组",
    "an object": "对象",
    "a JSON object": "JSON 对象",
    "a UUID": "UUID",
    "null": "null",
    "a value": "一个值",
    "any value": "任意值",
    "a file path (a string)": "文件路径（字符串）",
    "a URL (a string)": "URL（字符串）",
    "a string holding valid JSON": "内容为合法 JSON 的字符串",
    "a URL like https://example.com": "URL，例如 https://example.com",
    "a date in the past": "过去的日期",
    "a date in the future": "将来的日期",
    "a date-time in the past": "过去的日期时间",
    "a date-time in the future": "将来的日期时间",
}
_ZH_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^one of (.+)$", re.S), r"以下之一：\1"),
    (re.compile(r"^a number (>=|<=|>|<) (\S+) and (>=|<=|>|<) (\S+)$"), r"数字，且 \1 \2 且 \3 \4"),
    (re.compile(r"^an integer (>=|<=|>|<) (\S+) and (>=|<=|>|<) (\S+)$"), r"整数，且 \1 \2 且 \3 \4"),
    (re.compile(r"^a number (>=|<=|>|<) (.+)$"), r"数字，且 \1 \2"),
    (re.compile(r"^a date (>=|<=|>|<) (.+)$"), r"日期，且 \1 \2"),
    (re.compile(r"^a date-time (>=|<=|>|<) (.+)$"), r"日期时间，且 \1 \2"),
    (re.compile(r"^a value (>=|<=|>|<) (.+)$"), r"值，且 \1 \2"),
    (re.compile(r"^an integer (>=|<=|>|<) (.+)$"), r"整数，且 \1 \2"),
    (re.compile(r"^a string of at least (\d+) characters?$"), r"至少 \1 个字符的字符串"),
    (re.compile(r"^a string of at most (\d+) characters?$"), r"至多 \1 个字符的字符串"),
    (re.compile(r"^at least (\d+) items?$"), r"至少 \1 项"),
    (re.compile(r"^a URL of at most (\d+) characters?$"), r"至多 \1 个字符的 URL"),
    (re.compile(r"^a URL with the scheme (.+)$", re.S), r"协议为 \1 的 URL"),
    (re.compile(r"^a number of at most (\d+) digits?$"), r"至多 \1 位的数字"),
    (re.compile(r"^a number with at most (\d+) decimal places?$"), r"至多 \1 位小数的数字"),
    (re.compile(r"^a number with at most (\d+) digits? before the decimal point$"), r"整数部分至多 \1 位的数字"),
    (re.compile(r"^a UUID of version (\d+)$"), r"版本 \1 的 UUID"),
    (re.compile(r"^a date-time with a time zone, like (.+)$"), r"带时区的日期时间，例如 \1"),
    (re.compile(r"^a date-time without a time zone, like (.+)$"), r"不带时区的日期时间，例如 \1"),
    (re.compile(r"^at most (\d+) items?$"), r"至多 \1 项"),
    (re.compile(r"^a string matching (.+)$", re.S), r"匹配 \1 的字符串"),
    (re.compile(r"^a real date like (.+)$"), r"真实存在的日期，例如 \1"),
    (re.compile(r"^a real date-time like (.+)$"), r"真实存在的日期时间，例如 \1"),
    (re.compile(r"^a real time like (.+)$"), r"真实存在的时间，例如 \1"),
    (re.compile(r"^a date like (.+)$"), r"日期，例如 \1"),
    (re.compile(r"^a date-time like (.+)$"), r"日期时间，例如 \1"),
    (re.compile(r"^a time like (.+)$"), r"时间，例如 \1"),
    (re.compile(r"^an ISO 8601 duration like (.+)$"), r"ISO 8601 时长，例如 \1"),
]


def expected_zh(expected: str) -> str:
    """An "expected …" phrase in Chinese; `a or b` unions phrase by phrase; unknown phrases unchanged."""
    if expected in _ZH_WORDS:
        return _ZH_WORDS[expected]
    phrases = _phrases_zh(expected.split(" or "), 0, {})
    return " 或 ".join(phrases) if phrases is not None else expected


def _phrases_zh(parts: list[str], start: int, known: dict[int, list[str] | None]) -> list[str] | None:
    """`parts[start:]` (the text split at each ` or `) as Chinese phrases, each made of the fewest
    parts that translate whole: a union's branches (`an integer >= 1 or one of 'all'`), while a
    phrase holding ` or ` itself (`one of 'a' or 'b'`, `true or false`, a pattern's `or`) stays
    one; None when no such split exists. `known`: the answer from each start, found once."""
    if start == len(parts):
        return []
    if start not in known:
        known[start] = None
        for end in range(start + 1, len(parts) + 1):
            phrase = _phrase_zh(" or ".join(parts[start:end]))
            rest = _phrases_zh(parts, end, known) if phrase is not None else None
            if phrase is not None and rest is not None:
                known[start] = [phrase, *rest]
                break
    return known[start]


def _phrase_zh(phrase: str) -> str | None:
    """One phrase in Chinese (a word, or one of the patterns), or None."""
    if phrase in _ZH_WORDS:
        return _ZH_WORDS[phrase]
    for pattern, replacement in _ZH_PATTERNS:
        if pattern.match(phrase):
            return pattern.sub(replacement, phrase)
    return None


ZH = LoopTexts(
    guard="本轮对话中你已经用同样的参数调用过 {tool}，结果就在上面。请直接使用那个结果，不要再次调用。",
    guard_handover=GUARD_HANDOVER_ZH,
    not_run_limit="未执行：已达到 {limit} 轮工具调用的上限。",
    not_run="未执行：本轮的另一个调用 {tool} 出错（{error}），这一轮已停止。",
    interrupted="未完成：这一轮被 {error} 中断。",
    interrupted_running="执行中被 {error} 中断：结果未知（可能已经执行）。再次调用前请先确认。",
    timed_out="工具 {tool} 在 {seconds} 秒内没有完成：不再等待它，它可能仍在运行。结果未知（可能已经执行）。再次调用前请先确认。",
    unfinished="未完成：发起这个调用的那一轮在记录结果之前就结束了，结果未知（可能已经执行）。再次调用前请先确认。",
    unknown_tool="没有名为 {tool} 的工具。可用的工具：{available}。请只调用这些工具。",
    rolled_back="工具 {tool} 已执行成功，但因为工具 {failed} 失败，已被回滚（撤销）。",
    images_line="工具调用 {id}（{tool}）返回的图片：{count} 张",
    images_pointer="[本结果的图片已放在工具结果之后的用户消息中：{count} 张]",
    images_dropped="[本结果的以下图片没有传给模型：{items}]",
    image_item="第 {n} 张（{why}）",
    image_why={
        "url": "不是 data: 或 http(s):// 地址",
        "data": "不是带媒体类型的 base64 data: 地址",
        "format": "{mime} 不是聊天模型接受的格式（png、jpeg、gif、webp）",
        "size": "{size}，超过 {limit} 的上限",
        "count": "超过每轮 {limit} 张图片的上限",
    },
    image_separator="，",
    expected=expected_zh,
    unanswered="（没有回答：提出这个问题的那一轮在模型回复之前就结束了。）",
    not_given="（未提供）",
    unknown_field="{tool} 只接受字段 {fields}；{field} 不是它的参数，请删除这个字段",
    no_such_field="{field} 不是 {tool} 的参数，请删除这个字段",
    result_cut="\n[结果在此截断：共 {total} 个字符，只显示前 {kept} 个；如需其余部分，请分几次调用工具，每次少取一些]",
)
"""Chinese, for the course (`COURSE`) and any Chinese conversation."""
