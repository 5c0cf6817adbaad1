"""The course's skills: `data/skills/`, with the one tool a skill owns bound in code.

    skills = course_skills()          # refund-escalation, logistics-complaint
    skills.system_prompt()            # level 0, for the system message

`open_logistics_ticket` belongs to the `logistics-complaint` skill: the model sees it only
after activating that skill. Its ticket id is derived from the order and the problem, so the
same complaint gives the same ticket (and notebooks stay deterministic).

Leaves out: storing tickets anywhere (week 3's shop only reads).
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Annotated, Literal

from toolkit import data as course_data
from toolkit.course.validation import Rejected, normalize_order_id
from toolkit.errors import ArgumentError, ArgumentProblem
from toolkit.skills.offer import Skills
from toolkit.tools.decorator import Param, tool

PROBLEMS = {"stuck": "物流停滞", "lost": "包裹丢失", "damaged": "包裹破损", "wrong_address": "送错地址"}


@tool
def open_logistics_ticket(
    order_id: Annotated[str, Param("订单号，SN 开头加 12 位数字，必须来自用户的原话。", name="orderId")],
    problem: Literal["stuck", "lost", "damaged", "wrong_address"],
) -> str:
    """Open a complaint ticket with the carrier for one order's delivery problem.

    Args:
        problem: stuck (no trace update for 48 h), lost, damaged, or wrong_address.
    """
    try:
        order_id = normalize_order_id(order_id)
    except Rejected as exc:
        raise ArgumentError("open_logistics_ticket", [ArgumentProblem("orderId", order_id, exc.expected)]) from None
    ticket = f"LC{zlib.crc32(f'{order_id}:{problem}'.encode()) % 10**8:08d}"
    return f"已创建物流投诉工单 {ticket}：订单 {order_id}，问题：{PROBLEMS[problem]}。承运商会按承诺时效回复。"


def course_skills(root: Path | str | None = None) -> Skills:
    """The course skills, `open_logistics_ticket` owned by `logistics-complaint`."""
    return Skills.from_directory(
        course_data.path("skills") if root is None else root, tools={"logistics-complaint": [open_logistics_ticket]}
    )
