"""Composed nodes -> Python values, as the `yaml` library's `toJS` makes them.

Aliases resolve to the last node with their anchor before them in document order, and are
counted as the library counts them (`maxAliasCount` 100), so an alias bomb stops early with
the reference's own message instead of expanding into millions of values downstream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pinup.designmd.jsobject import reorder
from pinup.designmd.yamlload import ALIAS_BOMB_MESSAGE, MAX_ALIAS_COUNT, YamlError, YDict, YList, key_string
from pinup.designmd.yamlread.nodes import Node


class _Anchor:
    __slots__ = ("alias_count", "count", "res")

    def __init__(self) -> None:
        self.count = 1
        self.alias_count = 0
        self.res: Any = None


def _alias_targets(root: Node) -> dict[int, Node | None]:
    """Each alias's node: the last one anchored with its name before it, in document order."""
    targets: dict[int, Node | None] = {}
    latest: dict[str, Node] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind == "alias":
            targets[id(node)] = latest.get(node.name)
            continue
        if node.anchor:
            latest[node.anchor] = node
        if node.kind == "seq":
            stack.extend(reversed(node.items))
        elif node.kind == "map":
            for key, value in reversed(node.pairs):
                if value is not None:
                    stack.append(value)
                stack.append(key)
    return targets


class Values:
    def __init__(self, root: Node, block_line: Callable[[int], int], line_offset: int) -> None:
        self.root = root
        self.block_line = block_line  # offset -> the block's own 1-based line (errors use these)
        self.offset = line_offset
        self.targets = _alias_targets(root)
        self.anchors: dict[int, _Anchor] = {}

    def build(self, node: Node) -> Any:
        if node.kind == "alias":
            return self._alias(node)
        data: _Anchor | None = None
        if node.anchor:
            data = _Anchor()
            self.anchors[id(node)] = data
        if node.kind == "scalar":
            result: Any = node.value
            if data is not None:
                data.res = result
            return result
        if node.kind == "seq":
            seq = YList()
            seq.line = self.line_of(node.start)
            if data is not None:
                data.res = seq
            for item in node.items:
                seq.append(self.build(item))
                seq.item_lines.append(self.line_of(item.start))
            return seq
        mapping = YDict()
        mapping.line = self.line_of(node.start)
        if data is not None:
            data.res = mapping
        for key_node, value_node in node.pairs:
            key = key_string(self.build(key_node))
            mapping[key] = self.build(value_node) if value_node is not None else None
            mapping.key_lines.setdefault(key, self.line_of(key_node.start))
        reorder(mapping)
        return mapping

    def line_of(self, offset: int) -> int:
        return self.block_line(offset) + self.offset

    def _alias(self, node: Node) -> Any:
        target = self.targets.get(id(node))
        line = self.block_line(node.start)
        if target is None:
            message = f"Unresolved alias (the anchor must be set before the alias): {node.name}"
            raise YamlError(message, line)
        data = self.anchors.get(id(target))
        if data is None:
            self.build(target)
            data = self.anchors[id(target)]
        data.count += 1
        if data.alias_count == 0:
            data.alias_count = self._alias_count(target)
        if data.count * data.alias_count > MAX_ALIAS_COUNT:
            raise YamlError(ALIAS_BOMB_MESSAGE, line)
        return data.res

    def _alias_count(self, node: Node | None) -> int:
        """The `yaml` library's getAliasCount: the heaviest alias reachable without following one."""
        if node is None:
            return 1
        if node.kind == "alias":
            target = self.targets.get(id(node))
            data = self.anchors.get(id(target)) if target is not None else None
            return data.count * data.alias_count if data is not None else 0
        if node.kind == "seq":
            return max((self._alias_count(item) for item in node.items), default=0)
        if node.kind == "map":
            return max(
                (max(self._alias_count(key), self._alias_count(value)) for key, value in node.pairs),
                default=0,
            )
        return 1
