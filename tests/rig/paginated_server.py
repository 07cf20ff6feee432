"""A low-level `Server` (Python SDK 1.30) whose `tools/list` comes in three pages, over Streamable
HTTP at `/mcp` (stateful). Cursors are opaque strings (with characters a careless proxy might
mangle); every page but the last carries `nextCursor`; an unknown cursor gets -32602.

The nine tools use every field a 2025-11-25 tool can have: `title`, `annotations`,
`outputSchema`, `_meta`, `icons` (with `theme`), `execution`, plus an unknown vendor field that
must pass through untouched. Some are well described, some deliberately bad: no description at
all, a tautological one, undocumented parameters.

    python paginated_server.py [--json]

`--json`: answers are single JSON bodies; default: SSE streams. Prints `LISTENING <port>`; see
rig_common.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mcp.types as types  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager  # noqa: E402
from mcp.shared.exceptions import McpError  # noqa: E402
from rig_common import serve_mcp  # noqa: E402

# Opaque cursors: the gateway must hand them back exactly as given.
CURSORS = ["c/2+Pz==?&page=two \u00e9", "eyJwYWdlIjozfQ=="]


def obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return schema


def tool(**fields: Any) -> types.Tool:
    return types.Tool.model_validate(fields)


TOOLS: list[types.Tool] = [
    # Page 1
    tool(
        name="get_forecast",
        title="Weather forecast",
        description=(
            "Get the hourly weather forecast for a city for the next 1 to 7 days: temperature, "
            "precipitation probability and wind speed per hour. Read-only; uses a public weather "
            "service. Use `get_current_weather` instead for conditions right now."
        ),
        inputSchema=obj(
            {
                "city": {"type": "string", "description": "City name, optionally with country code, e.g. 'Lyon, FR'"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7, "default": 3, "description": "Days ahead (1-7)"},
            },
            ["city"],
        ),
        outputSchema=obj(
            {"hours": {"type": "array", "items": {"type": "object"}, "description": "One entry per hour"}}, ["hours"]
        ),
        annotations={"title": "Forecast", "readOnlyHint": True, "openWorldHint": True},
        icons=[{"src": "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=", "mimeType": "image/svg+xml", "theme": "dark"}],
        _meta={"rig.example/version": 2, "rig.example/precise": 1.50},
        execution={"taskSupport": "forbidden"},
    ),
    tool(name="thing", inputSchema=obj({"a": {"type": "string"}, "b": {"type": "number"}})),
    tool(
        name="get_current_weather",
        title="Current weather",
        description=(
            "Get the current weather conditions for a city: temperature in Celsius, humidity and "
            "a one-line summary. Read-only. Use `get_forecast` for future hours."
        ),
        inputSchema=obj({"city": {"type": "string", "description": "City name, e.g. 'Lyon, FR'"}}, ["city"]),
        annotations={"readOnlyHint": True, "openWorldHint": True},
        **{"x-vendor-extension": {"kept": True, "n": 1e2}},
    ),
    # Page 2
    tool(name="get_stuff", description="Gets stuff.", inputSchema=obj({"q": {"type": "string"}})),
    tool(
        name="convert_units",
        title="Convert units",
        description=(
            "Convert a numeric value between units of length, mass or temperature, e.g. 3 miles to "
            "kilometres. Pure computation with no side effects; returns the converted value and the "
            "target unit's symbol. Fails with an error for incompatible units such as kg to metres."
        ),
        inputSchema=obj(
            {
                "value": {"type": "number", "description": "The quantity to convert"},
                "from_unit": {"type": "string", "description": "Unit of `value`, e.g. 'mi', 'kg', 'degC'"},
                "to_unit": {"type": "string", "description": "Unit to convert to, same dimension as `from_unit`"},
            },
            ["value", "from_unit", "to_unit"],
        ),
        outputSchema=obj({"value": {"type": "number"}, "unit": {"type": "string"}}, ["value", "unit"]),
        annotations={"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False},
        _meta={},
    ),
    tool(
        name="run",
        description="Runs it.",
        inputSchema=obj({"x": {"type": "string"}, "y": {"type": "string"}, "z": {"type": "boolean"}}),
    ),
    # Page 3
    tool(
        name="list_stations",
        title="List weather stations",
        description=(
            "List the weather stations within a radius of a city, nearest first, with their "
            "identifiers and distances in kilometres. Read-only. Use the identifiers with "
            "`get_forecast` when a city has several stations."
        ),
        inputSchema=obj(
            {
                "city": {"type": "string", "description": "City to search around, e.g. 'Lyon, FR'"},
                "radius_km": {"type": "number", "minimum": 1, "maximum": 200, "description": "Search radius in km"},
            },
            ["city"],
        ),
        annotations={"readOnlyHint": True, "openWorldHint": True},
        icons=[{"src": "https://rig.example/station.png", "sizes": ["16x16", "32x32"]}],
    ),
    tool(name="helper", description="", inputSchema=obj({"data": {}})),
    tool(name="misc", description="Misc.", inputSchema={"type": "object"}),
]
PAGE_SIZE = 3


def build() -> Server:
    server: Server = Server("rig-paginated", version="1.0.0")

    @server.list_tools()
    async def list_tools(req: types.ListToolsRequest) -> types.ListToolsResult:
        cursor = req.params.cursor if req.params else None
        if cursor is None:
            page = 0
        elif cursor in CURSORS:
            page = CURSORS.index(cursor) + 1
        else:
            raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=f"invalid cursor {cursor!r}"))
        tools = TOOLS[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        next_cursor = CURSORS[page] if page < len(CURSORS) else None
        return types.ListToolsResult(tools=tools, nextCursor=next_cursor)

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
        if name == "convert_units":
            return {"value": float(arguments.get("value", 0)) * 1.609344, "unit": "km"}
        if name == "get_forecast":
            return {"hours": [{"t": 0, "tempC": 12.5}]}
        return [types.TextContent(type="text", text=f"{name} called with {sorted(arguments)}")]

    return server


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    manager = StreamableHTTPSessionManager(app=build(), json_response=args.json)

    serve_mcp(manager)


if __name__ == "__main__":
    main()
