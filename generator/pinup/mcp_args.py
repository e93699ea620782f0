"""An MCP tool's arguments checked, and every refusal said in words an agent can act on.

Why: the MCP SDK validates a call against the tool's signature with pydantic and answers with
pydantic's own report (a model name, error codes, a documentation link), and it drops arguments
it does not know without a word, so a misspelt optional argument silently does nothing. Here a
call with an argument the tool does not take is refused, and a failed validation is retold: what
was missing or wrong, what it got, and what the tool expects. Everything is read from the tool's
published input schema (its parameters' types, bounds and descriptions), so a tool added later
is checked and explained the same way, with nothing to register.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

#: how much of a wrong value an answer quotes
QUOTE = 60


def _names(names: Sequence[str]) -> str:
    """`a`, `b` and `c`."""
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _quote(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= QUOTE else text[: QUOTE - 1] + "…"


def _bounds(prop: Mapping[str, Any]) -> str:
    low = prop.get("minimum", prop.get("exclusiveMinimum"))
    high = prop.get("maximum", prop.get("exclusiveMaximum"))
    if low is not None and high is not None:
        return f" from {low:g} to {high:g}"
    if low is not None:
        return f" of {low:g} or more" if "minimum" in prop else f" above {low:g}"
    if high is not None:
        return f" of {high:g} or less" if "maximum" in prop else f" below {high:g}"
    return ""


def _one(prop: Mapping[str, Any]) -> str:
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    if "const" in prop:
        return f"`{prop['const']}`"
    kind = prop.get("type")
    if kind == "integer":
        return "a whole number" + _bounds(prop)
    if kind == "number":
        return "a number" + _bounds(prop)
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        if prop.get("minLength") and prop.get("maxLength"):
            return f"text of {prop['minLength']} to {prop['maxLength']} characters"
        if prop.get("minLength"):
            return "text that is not empty"
        return f"text of at most {prop['maxLength']} characters" if prop.get("maxLength") else "text"
    if kind == "array":
        return "a list"
    if kind == "object":
        return "an object"
    return "a value"


def expects(prop: Mapping[str, Any]) -> str:
    """What a parameter takes, for a person: "a whole number of 1 or more", "one of `a`, `b`"."""
    choices = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    said = " or ".join(dict.fromkeys(_one(p) for p in choices)) or "a value"
    return said + (" (or null)" if len(choices) < len(prop.get("anyOf", [prop])) else "")


def _about(name: str, prop: Mapping[str, Any]) -> str:
    """`n`, the item number."""
    description = str(prop.get("description") or "").strip().rstrip(".")
    return f"`{name}`, {description}" if description else f"`{name}`"


def _got(arguments: Mapping[str, Any]) -> str:
    return "it got " + (", ".join(f"`{n}`" for n in arguments) if arguments else "no arguments")


def _takes(schema: Mapping[str, Any]) -> str:
    props: Mapping[str, Any] = schema.get("properties") or {}
    if not props:
        return "It takes no arguments."
    required = set(schema.get("required") or ())
    parts = []
    for name, prop in props.items():
        description = str(prop.get("description") or "").strip().rstrip(".")
        how = "required" if name in required else "optional"
        parts.append(f"`{name}` ({description + '; ' if description else ''}{how})")
    return "It takes " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]) + "."


def _needs(tool: str, missing: Sequence[str], schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> str:
    props: Mapping[str, Any] = schema.get("properties") or {}
    needed = [_about(name, props.get(name, {})) for name in missing]
    listed = needed[0] if len(needed) == 1 else ", ".join(needed[:-1]) + " and " + needed[-1]
    return f"{tool} needs {listed}; {_got(arguments)}."


def unknown(tool: str, schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> str | None:
    """The refusal of a call with arguments the tool does not take (None when it takes them all)."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    extra = [name for name in arguments if name not in props]
    if not extra:
        return None
    missing = [name for name in schema.get("required") or () if name not in arguments]
    said = [_needs(tool, missing, schema, arguments)] if missing else []
    said.append(f"{tool} does not take {_names(extra)}. {_takes(schema)}")
    return " ".join(said)


def explain(tool: str, schema: Mapping[str, Any], arguments: Mapping[str, Any], error: ValidationError) -> str:
    """Pydantic's report on a call's arguments, retold: each missing or wrong argument, with what it expects."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    missing: list[str] = []
    wrong: dict[str, str] = {}  # one sentence per argument, however many union branches failed
    for detail in error.errors():
        name = str(detail["loc"][0]) if detail["loc"] else ""
        if detail["type"] == "missing":
            missing.append(name)
        elif name and name not in wrong:
            value = arguments.get(name, detail.get("input"))
            wrong[name] = f"`{name}` must be {expects(props.get(name, {}))}; it got {_quote(value)}."
    said = [_needs(tool, list(dict.fromkeys(missing)), schema, arguments)] if missing else []
    if wrong:
        said.append(f"{tool}: " + " ".join(wrong.values()))
    return " ".join(said) or f"{tool} could not read its arguments. {_takes(schema)}"


class CheckedServer(MCPServer):
    """An MCPServer whose tools refuse arguments they do not take and explain bad ones in words."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        schemas = {tool.name: dict(tool.input_schema) for tool in await self.list_tools()}
        schema = schemas.get(name)
        if schema is None:
            raise ToolError(f"there is no tool `{name}`; the tools are {_names(sorted(schemas))}.")
        refusal = unknown(name, schema, arguments)
        if refusal is not None:
            raise ToolError(refusal)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            raise ToolError(explain(name, schema, arguments, exc.__cause__)) from None
