"""No view's HTML is typeset as math.

Found as a stranger: JupyterLab typesets every `text/html` output with MathJax (`$…$`, `$$…$$`,
`\\(…\\)`, `\\[…\\]`, its TeX packages all loaded), so a reply reading "it costs $25, shipping $5"
showed "25, shipping" as one italic formula in the conversation, trace and stepper, and a tool's
result `$$\\href{https://…}{verify your key}$$` drew a link, `$$\\rule{90em}{90em}$$` a black block
over the notebook. MathJax leaves an element carrying its ignore class alone (`tex2jax_ignore`
before MathJax 3.2, `mathjax_ignore` since; pandas sets both for `display.html.use_mathjax=False`),
so the root of every view's HTML carries both."""

import pytest
from html_tree import Node, Tree

from toolkit.chat.scripted import ScriptedModel, call, reset_call_ids
from toolkit.exercises.core import check
from toolkit.exercises.week06 import _order_tools
from toolkit.loop.run import run_loop
from toolkit.views.conversation import ConversationView
from toolkit.views.display import show_table
from toolkit.views.html import NO_MATH
from toolkit.views.playground import AssistantPlayground
from toolkit.views.search_box import SearchBox
from toolkit.views.stepper import LoopStepper
from toolkit.views.timeline import Span, Timeline
from toolkit.views.tool_editor import ToolEditor
from toolkit.views.trace import TraceView

PRICE = "it costs $25, shipping $5 $$\\rule{90em}{90em}$$"


def run():
    reset_call_ids()
    model = ScriptedModel([call("query_order", orderId="SN202610200001"), PRICE])
    return run_loop(model, PRICE, tools=_order_tools())


VIEWS = {
    "conversation": lambda: ConversationView([{"role": "user", "content": PRICE}]),
    "trace": lambda: TraceView(run()),
    "stepper": lambda: LoopStepper(run()),
    "table": lambda: show_table([{"price": PRICE}]),
    "timeline": lambda: Timeline([("run", [Span(PRICE, 0.0, 1.0, PRICE)])], title=PRICE),
    "tool editor": lambda: ToolEditor(
        f"from toolkit import tool\n@tool({PRICE!r})\ndef f(x: str) -> str:\n    return x\n"
    ),
    "tool editor error": lambda: ToolEditor(f"raise ValueError({PRICE!r})"),
    "playground": lambda: AssistantPlayground(env={}),
    "search box": lambda: SearchBox(query=PRICE),
    "check": lambda: check("w6.window", lambda messages, n: (_ for _ in ()).throw(ValueError(PRICE))),
}


def _roots(markup: str) -> list[Node | str]:
    return [child for child in Tree(markup).root.children if not (isinstance(child, str) and not child.strip())]


@pytest.mark.parametrize("name", VIEWS)
def test_every_view_s_html_is_kept_from_mathjax_at_its_root(name):
    html = VIEWS[name]()._repr_mimebundle_()["text/html"]
    roots = _roots(html)
    assert roots and all(
        isinstance(root, Node) and {"tex2jax_ignore", "mathjax_ignore"} <= set(root.classes) for root in roots
    )


def test_a_page_root_and_the_playground_panes_read_so():
    assert NO_MATH == "tex2jax_ignore mathjax_ignore"
    assert ConversationView([])._repr_mimebundle_()["text/html"].startswith(f'<div class="tk {NO_MATH}" style="')
    html = AssistantPlayground(env={})._repr_mimebundle_()["text/html"]
    assert html.startswith(
        f'<span class="{NO_MATH}" style="color:#57606a">a new conversation</span><div class="tk {NO_MATH}" style="'
    )
    assert html.endswith(f'</div><i class="{NO_MATH}">no turn yet</i>')
