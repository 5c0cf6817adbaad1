"""A tiny HTML checker for the view tests: tags must nest properly; elements found by class."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"br", "hr", "img", "meta", "input", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def text(self) -> str:
        """All text inside, entities decoded."""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, cls: str) -> list[Node]:
        """Descendants carrying the class `cls`, in document order."""
        found = []
        for child in self.children:
            if isinstance(child, Node):
                found += [child] if cls in child.classes else []
                found += child.find_all(cls)
        return found


class Tree(HTMLParser):
    """Parses markup into `root`; fails on a tag closed out of order or left open."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]
        self.elements: list[tuple[str, dict[str, str], int]] = []  # (tag, attrs, depth)
        self.feed(markup)
        self.close()
        assert len(self.stack) == 1, f"unclosed tags: {[n.tag for n in self.stack[1:]]}"

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.elements.append((tag, node.attrs, len(self.stack) - 1))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].children.append(data)

    @property
    def text(self) -> str:
        return self.root.text()

    def find_all(self, cls: str) -> list[Node]:
        return self.root.find_all(cls)
