"""An MCP server of our own (Python SDK 1.30, low-level `Server`, stateful Streamable HTTP at
`/mcp`) implementing the fixtures that the server scenarios of `@modelcontextprotocol/conformance`
0.1.16 call: tools `test_simple_text`, `test_image_content`, `test_audio_content`,
`test_embedded_resource`, `test_multiple_content_types`, `test_tool_with_logging`,
`test_error_handling`, `test_tool_with_progress`, `test_sampling`, `test_elicitation`,
`test_elicitation_sep1034_defaults`, `test_elicitation_sep1330_enums`,
`json_schema_2020_12_tool`; resources `test://static-text`, `test://static-binary`, the template
`test://template/{id}/data`, `test://watched-resource` (subscribable); prompts
`test_simple_prompt`, `test_prompt_with_arguments`, `test_prompt_with_embedded_resource`,
`test_prompt_with_image`; completion; logging levels; DNS-rebinding protection.

Written from the scenarios' published requirements, so that every scenario passes directly; the
gateway must then pass every one too. Prints `LISTENING <port>`; see rig_common.py.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mcp.types as types  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402
from mcp.server.lowlevel.helper_types import ReadResourceContents  # noqa: E402
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager  # noqa: E402
from mcp.server.transport_security import TransportSecuritySettings  # noqa: E402
from rig_common import serve_mcp  # noqa: E402

# A 1x1 red PNG and a tiny silent WAV.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
PNG_B64 = base64.b64encode(PNG).decode()
WAV_B64 = base64.b64encode(
    b"RIFF" + (36 + 2).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
    + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + (8000).to_bytes(4, "little")
    + (16000).to_bytes(4, "little") + (2).to_bytes(2, "little") + (16).to_bytes(2, "little")
    + b"data" + (2).to_bytes(4, "little") + b"\x00\x00"
).decode()

NO_ARGS: dict[str, Any] = {"type": "object", "properties": {}}


def tool(name: str, description: str, schema: dict[str, Any] | None = None) -> types.Tool:
    return types.Tool(name=name, description=description, inputSchema=schema or NO_ARGS)


TOOLS = [
    tool("test_simple_text", "Returns a fixed text, for the simple-text scenario."),
    tool("test_image_content", "Returns a 1x1 PNG image."),
    tool("test_audio_content", "Returns a tiny WAV audio clip."),
    tool("test_embedded_resource", "Returns an embedded text resource."),
    tool("test_multiple_content_types", "Returns text, an image and an embedded resource."),
    tool("test_tool_with_logging", "Sends three info log messages while it runs."),
    tool("test_error_handling", "Always fails, returning isError with a message."),
    tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100."),
    tool(
        "test_sampling",
        "Asks the client's model to complete a prompt (sampling/createMessage).",
        {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]},
    ),
    tool(
        "test_elicitation",
        "Asks the user for a username and email (elicitation/create).",
        {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    ),
    tool("test_elicitation_sep1034_defaults", "Elicitation whose schema has a default for every primitive type."),
    tool("test_elicitation_sep1330_enums", "Elicitation with all five enum schema variants."),
    tool(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}
            },
            "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
            "additionalProperties": False,
        },
    ),
]


def text(t: str) -> types.TextContent:
    return types.TextContent(type="text", text=t)


def build() -> Server:
    server: Server = Server("rig-conformance", version="1.0.0")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return TOOLS

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, args: dict[str, Any]) -> Any:
        ctx = server.request_context
        session, rid = ctx.session, ctx.request_id
        if name == "test_simple_text":
            return [text("This is a simple text response for testing.")]
        if name == "test_image_content":
            return [types.ImageContent(type="image", data=PNG_B64, mimeType="image/png")]
        if name == "test_audio_content":
            return [types.AudioContent(type="audio", data=WAV_B64, mimeType="audio/wav")]
        if name == "test_embedded_resource":
            res = types.TextResourceContents(
                uri="test://embedded-resource", mimeType="text/plain", text="This is an embedded resource content."
            )
            return [types.EmbeddedResource(type="resource", resource=res)]
        if name == "test_multiple_content_types":
            res = types.TextResourceContents(
                uri="test://mixed-content-resource",
                mimeType="application/json",
                text=json.dumps({"test": "data", "value": 123}),
            )
            return [
                text("Multiple content types test:"),
                types.ImageContent(type="image", data=PNG_B64, mimeType="image/png"),
                types.EmbeddedResource(type="resource", resource=res),
            ]
        if name == "test_tool_with_logging":
            for i, message in enumerate(["Tool execution started", "Tool processing data", "Tool execution completed"]):
                if i:
                    await anyio.sleep(0.05)
                await session.send_log_message("info", message, logger="conformance", related_request_id=rid)
            return [text("Tool with logging executed successfully")]
        if name == "test_error_handling":
            raise RuntimeError("This tool intentionally returns an error for testing")
        if name == "test_tool_with_progress":
            token = ctx.meta.progressToken if ctx.meta else None
            for i, p in enumerate([0, 50, 100]):
                if i:
                    await anyio.sleep(0.05)
                if token is not None:
                    await session.send_progress_notification(token, p, 100, related_request_id=str(rid))
            return [text("Tool with progress executed successfully")]
        if name == "test_sampling":
            result = await session.create_message(
                messages=[types.SamplingMessage(role="user", content=text(str(args.get("prompt", ""))))],
                max_tokens=100,
                related_request_id=rid,
            )
            content = result.content
            answer = content.text if isinstance(content, types.TextContent) else str(content)
            return [text(f"LLM response: {answer}")]
        if name in ("test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"):
            message, schema = elicitation(name, args)
            result = await session.elicit(message=message, requestedSchema=schema, related_request_id=rid)
            return [text(f"Elicitation completed: action={result.action}, content={json.dumps(result.content)}")]
        if name == "json_schema_2020_12_tool":
            return [text(f"received {json.dumps(args)}")]
        raise ValueError(f"unknown tool {name}")

    @server.list_resources()
    async def list_resources() -> list[types.Resource]:
        return [
            types.Resource(uri="test://static-text", name="static-text", description="Static text", mimeType="text/plain"),
            types.Resource(
                uri="test://static-binary", name="static-binary", description="Static PNG", mimeType="image/png"
            ),
            types.Resource(
                uri="test://watched-resource", name="watched", description="Subscribable", mimeType="text/plain"
            ),
        ]

    @server.list_resource_templates()
    async def list_templates() -> list[types.ResourceTemplate]:
        return [
            types.ResourceTemplate(
                uriTemplate="test://template/{id}/data",
                name="template",
                description="Data by id",
                mimeType="application/json",
            )
        ]

    @server.read_resource()
    async def read_resource(uri: Any) -> list[ReadResourceContents]:
        u = str(uri)
        if u == "test://static-text":
            return [ReadResourceContents("This is the content of the static text resource.", "text/plain")]
        if u == "test://static-binary":
            return [ReadResourceContents(PNG, "image/png")]
        if u == "test://watched-resource":
            return [ReadResourceContents("watched", "text/plain")]
        if u.startswith("test://template/") and u.endswith("/data"):
            ident = u[len("test://template/") : -len("/data")]
            body = {"id": ident, "templateTest": True, "data": f"Data for ID: {ident}"}
            return [ReadResourceContents(json.dumps(body), "application/json")]
        raise ValueError(f"unknown resource {u}")

    @server.subscribe_resource()
    async def subscribe(_uri: Any) -> None:
        return None

    @server.unsubscribe_resource()
    async def unsubscribe(_uri: Any) -> None:
        return None

    @server.list_prompts()
    async def list_prompts() -> list[types.Prompt]:
        arg = types.PromptArgument
        return [
            types.Prompt(name="test_simple_prompt", description="A simple prompt"),
            types.Prompt(
                name="test_prompt_with_arguments",
                description="A prompt with arguments",
                arguments=[arg(name="arg1", required=True), arg(name="arg2", required=True)],
            ),
            types.Prompt(
                name="test_prompt_with_embedded_resource",
                description="A prompt embedding a resource",
                arguments=[arg(name="resourceUri", required=True)],
            ),
            types.Prompt(name="test_prompt_with_image", description="A prompt with an image"),
        ]

    @server.get_prompt()
    async def get_prompt(name: str, args: dict[str, str] | None) -> types.GetPromptResult:
        args = args or {}
        msg = types.PromptMessage
        if name == "test_simple_prompt":
            return types.GetPromptResult(messages=[msg(role="user", content=text("This is a simple prompt for testing."))])
        if name == "test_prompt_with_arguments":
            t = f"Prompt with arguments: arg1='{args.get('arg1')}', arg2='{args.get('arg2')}'"
            return types.GetPromptResult(messages=[msg(role="user", content=text(t))])
        if name == "test_prompt_with_embedded_resource":
            res = types.TextResourceContents(
                uri=args.get("resourceUri", "test://example-resource"), mimeType="text/plain", text="Embedded resource"
            )
            return types.GetPromptResult(
                messages=[
                    msg(role="user", content=types.EmbeddedResource(type="resource", resource=res)),
                    msg(role="user", content=text("Please process the embedded resource above.")),
                ]
            )
        if name == "test_prompt_with_image":
            return types.GetPromptResult(
                messages=[
                    msg(role="user", content=types.ImageContent(type="image", data=PNG_B64, mimeType="image/png")),
                    msg(role="user", content=text("Please analyze the image above.")),
                ]
            )
        raise ValueError(f"unknown prompt {name}")

    @server.completion()
    async def complete(_ref: Any, argument: types.CompletionArgument, _context: Any) -> types.Completion:
        values = [v for v in ["paris", "park", "party", "test", "testing"] if v.startswith(argument.value)]
        return types.Completion(values=values, total=len(values), hasMore=False)

    @server.set_logging_level()
    async def set_level(_level: types.LoggingLevel) -> None:
        return None

    return server


def elicitation(name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if name == "test_elicitation":
        return str(args.get("message", "Please provide your information")), {
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        }
    if name == "test_elicitation_sep1034_defaults":
        return "Please review the defaults", {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {
                    "type": "string",
                    "description": "User status",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active",
                },
                "verified": {"type": "boolean", "description": "Verification status", "default": True},
            },
        }
    return "Please choose", {
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {
                "type": "string",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"},
                ],
            },
            "legacyEnum": {
                "type": "string",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"],
            },
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"},
                    ]
                },
            },
        },
    }


def main() -> None:
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )
    manager = StreamableHTTPSessionManager(app=build(), security_settings=security)

    serve_mcp(manager)


if __name__ == "__main__":
    main()
