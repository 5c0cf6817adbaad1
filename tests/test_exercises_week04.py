"""Week 4's checks with other learners' code: a declaration whose MemoryId marks the question, not the user id, is
told which parameter it marks."""

from typing import Annotated, Protocol

from toolkit import MemoryId, UserText
from toolkit.exercises import check


def test_a_declaration_with_the_markers_swapped_is_told_which_parameter_memoryid_marks():
    """Before: parameters in the right order, user_id then question, but MemoryId on the question, read "yours has
    them the other way round": the learner's parameters were not, their markers were."""

    class Assistant(Protocol):
        def chat(self, user_id: Annotated[str, UserText], question: Annotated[str, MemoryId]) -> str: ...

    assert check("w4.declare", Assistant).feedback == (
        "chat() takes the user id first, then the question, and MemoryId marks the user id; yours marks its second "
        'parameter, \'question\' (chat("alice", "我叫 Alice") used the question as the memory id)'
    )


def test_a_declaration_in_a_module_with_postponed_annotations_is_told_the_same():
    """`from __future__ import annotations` makes each annotation a string: the marker is still found."""
    namespace: dict = {}
    exec(
        "from __future__ import annotations\n"
        "from typing import Annotated, Protocol\n"
        "from toolkit import MemoryId, UserText\n"
        "class Assistant(Protocol):\n"
        "    def chat(self, question: Annotated[str, UserText], who: Annotated[str, MemoryId]) -> str: ...\n",
        namespace,
    )
    assert "yours marks its second parameter, 'who' (" in check("w4.declare", namespace["Assistant"]).feedback
