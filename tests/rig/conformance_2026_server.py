"""An MCP server of our own speaking protocol revision 2026-07-28 (stateless) at `/mcp`, for the
2026-07-28 server scenarios of `@modelcontextprotocol/conformance` 0.2.0-alpha.12.

The Python SDK (`mcp` 1.30) predates the revision, so this is plain Starlette. What 2026-07-28
asks of a server, as the suite checks it:
- no sessions and no handshake: every request carries `_meta` with
  `io.modelcontextprotocol/protocolVersion` and `.../clientCapabilities` (else -32602, HTTP 400);
  `initialize`, `ping`, `logging/setLevel`, `resources/(un)subscribe` are gone (-32601, HTTP 404);
- `server/discover` (supported versions, capabilities, `_meta` serverInfo); an unsupported
  version gets -32022 with `data.supported`/`data.requested`, HTTP 400;
- headers that mirror the body: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (tool or
  prompt name, resource URI) and `Mcp-Param-<X>` for tool arguments marked `x-mcp-header`
  (value literal, or `=?base64?...?=`); any mismatch or omission is -32020, HTTP 400;
- every result has `resultType`; list results and `resources/read` carry `ttlMs`/`cacheScope`;
- no server-to-client requests: a tool that needs the client answers `resultType:
  "input_required"` with `inputRequests` (and an HMAC-signed `requestState`), and the client
  calls again with `inputResponses`;
- notifications only on the stream of the request they belong to (progress; logs only when
  `_meta.../logLevel` asks), list changes only on `subscriptions/listen` streams, each tagged
  with its subscription id;
- DNS-rebinding protection: a foreign Host or Origin gets 403.

Prints `LISTENING <port>`; see rig_common.py.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, AsyncIterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, Response, StreamingResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from rig_common import Recorder, serve  # noqa: E402

VERSION = "2026-07-28"
SERVER_INFO = {"name": "rig-conformance-2026", "version": "1.0.0"}
META = "io.modelcontextprotocol/"
TTL = {"ttlMs": 60_000, "cacheScope": "public"}

# Error codes of the revision.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
HEADER_MISMATCH, MISSING_CAPABILITY, UNSUPPORTED_VERSION = -32020, -32021, -32022

PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
WAV_B64 = base64.b64encode(
    b"RIFF" + (38).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
    + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + (8000).to_bytes(4, "little")
    + (16000).to_bytes(4, "little") + (2).to_bytes(2, "little") + (16).to_bytes(2, "little")
    + b"data" + (2).to_bytes(4, "little") + b"\x00\x00"
).decode()

# Signs requestState: the client holds the state between rounds and must not be able to forge it.
STATE_KEY = os.urandom(32)


class RpcError(Exception):
    def __init__(self, code: int, message: str, status: int = 200, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.data = code, message, status, data


def no_args() -> dict[str, Any]:
    return {"type": "object", "properties": {}}


def tool(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": schema or no_args()}


JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}

# The first tool is what http-header-validation calls with no arguments: it must succeed.
BASE_TOOLS = [
    tool(
        "test_simple_text",
        "Returns the fixed text 'This is a simple text response for testing.'; takes no arguments.",
    ),
    tool("test_image_content", "Returns one content block: a 1x1 red PNG image, base64 encoded."),
    tool("test_audio_content", "Returns one content block: a tiny silent WAV clip, base64 encoded."),
    tool("test_embedded_resource", "Returns an embedded text resource at test://embedded-resource."),
    tool("test_multiple_content_types", "Returns three content blocks: text, a PNG image and an embedded resource."),
    tool("test_error_handling", "Always fails: returns isError true with a message, for error handling tests."),
    tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 when the call carries a progressToken."),
    tool("test_logging_tool", "Sends three log messages, but only when the request sets _meta logLevel."),
    tool("test_missing_capability", "Needs the client's sampling capability; fails with -32021 without it."),
    tool("test_streaming_elicitation", "Asks the user for a name through an input_required result (elicitation)."),
    tool("test_trigger_tool_change", "Adds or removes the tool test_dynamic_tool and notifies subscriptions."),
    tool("test_trigger_prompt_change", "Adds or removes the prompt test_dynamic_prompt and notifies subscriptions."),
    tool(
        "test_header_param",
        "Echoes the region argument, which clients must mirror in the Mcp-Param-Region header.",
        {
            "type": "object",
            "properties": {"region": {"type": "string", "description": "Region name", "x-mcp-header": "Region"}},
            "required": ["region"],
        },
    ),
    tool("test_input_required_result_elicitation", "Asks the user's name (elicitation), then greets them."),
    tool("test_input_required_result_sampling", "Asks the client's model the capital of France (sampling)."),
    tool("test_input_required_result_list_roots", "Asks the client for its roots (roots/list), then lists them."),
    tool("test_input_required_result_request_state", "Asks for a confirmation, keeping signed requestState."),
    tool("test_input_required_result_multiple_inputs", "Asks for elicitation, sampling and roots in one round."),
    tool("test_input_required_result_multi_round", "Asks for a name, then a colour, over two rounds."),
    tool("test_input_required_result_tampered_state", "Signs its requestState and rejects a tampered one."),
    tool("test_input_required_result_capabilities", "Asks only for inputs the client declared it can give."),
    tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", JSON_SCHEMA_2020_12),
]
DYNAMIC_TOOL = tool("test_dynamic_tool", "Exists only after test_trigger_tool_change; returns a fixed text.")

PROMPTS = [
    {"name": "test_simple_prompt", "description": "A simple prompt"},
    {
        "name": "test_prompt_with_arguments",
        "description": "A prompt with arguments",
        "arguments": [{"name": "arg1", "required": True}, {"name": "arg2", "required": True}],
    },
    {
        "name": "test_prompt_with_embedded_resource",
        "description": "A prompt embedding a resource",
        "arguments": [{"name": "resourceUri", "required": True}],
    },
    {"name": "test_prompt_with_image", "description": "A prompt with an image"},
    {"name": "test_input_required_result_prompt", "description": "A prompt that asks the user for context first"},
]
DYNAMIC_PROMPT = {"name": "test_dynamic_prompt", "description": "Exists only after test_trigger_prompt_change"}

RESOURCES = [
    {"uri": "test://static-text", "name": "static-text", "description": "Static text", "mimeType": "text/plain"},
    {"uri": "test://static-binary", "name": "static-binary", "description": "Static PNG", "mimeType": "image/png"},
]
TEMPLATES = [
    {
        "uriTemplate": "test://template/{id}/data",
        "name": "template",
        "description": "Data by id",
        "mimeType": "application/json",
    }
]

CAPABILITIES = {
    "tools": {"listChanged": True},
    "prompts": {"listChanged": True},
    "resources": {"listChanged": True},
    "completions": {},
    "logging": {},
}

REMOVED_METHODS = {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def done(*content: dict[str, Any], is_error: bool = False) -> dict[str, Any]:
    """A complete CallToolResult."""
    out: dict[str, Any] = {"resultType": "complete", "content": list(content)}
    if is_error:
        out["isError"] = True
    return out


def elicit(message: str, field: str, kind: str = "string") -> dict[str, Any]:
    schema = {"type": "object", "properties": {field: {"type": kind}}, "required": [field]}
    return {"method": "elicitation/create", "params": {"message": message, "requestedSchema": schema}}


def sample(question: str, max_tokens: int) -> dict[str, Any]:
    message = {"role": "user", "content": text(question)}
    return {"method": "sampling/createMessage", "params": {"messages": [message], "maxTokens": max_tokens}}


ROOTS = {"method": "roots/list", "params": {}}


def sign(payload: dict[str, Any]) -> str:
    body = base64.urlsafe_b64encode(json.dumps(payload, sort_keys=True).encode()).decode()
    mac = hmac.new(STATE_KEY, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def verify(state: Any) -> dict[str, Any]:
    """The payload of a requestState this server signed, or -32602."""
    if not isinstance(state, str) or "." not in state:
        raise RpcError(INVALID_PARAMS, "requestState is missing or malformed")
    body, mac = state.rsplit(".", 1)
    good = hmac.new(STATE_KEY, body.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(mac, good):
        raise RpcError(INVALID_PARAMS, "requestState failed its integrity check")
    try:
        return json.loads(base64.urlsafe_b64decode(body.encode()))
    except (ValueError, binascii.Error) as e:
        raise RpcError(INVALID_PARAMS, "requestState is malformed") from e


def input_required(requests: dict[str, Any], state: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"resultType": "input_required", "inputRequests": requests}
    if state is not None:
        out["requestState"] = sign(state)
    return out


class Server:
    def __init__(self) -> None:
        self.dynamic_tool = False
        self.dynamic_prompt = False
        self.listeners: dict[int, tuple[dict[str, Any], asyncio.Queue[dict[str, Any]]]] = {}
        self.next_subscription = 1

    # --- lists --------------------------------------------------------------------------
    def tools(self) -> list[dict[str, Any]]:
        return BASE_TOOLS + ([DYNAMIC_TOOL] if self.dynamic_tool else [])

    def prompts(self) -> list[dict[str, Any]]:
        return PROMPTS + ([DYNAMIC_PROMPT] if self.dynamic_prompt else [])

    def notify(self, flag: str, method: str) -> None:
        for sid, (filt, queue) in self.listeners.items():
            if filt.get(flag):
                params = {"_meta": {META + "subscriptionId": sid}}
                queue.put_nowait({"jsonrpc": "2.0", "method": method, "params": params})

    # --- request validation -------------------------------------------------------------
    def check_headers(self, request: Request, method: str, params: dict[str, Any]) -> None:
        h = request.headers  # case-insensitive names; values compared after trimming whitespace
        header_method = h.get("mcp-method")
        if header_method is None or header_method.strip() != method:
            raise RpcError(HEADER_MISMATCH, "Mcp-Method header missing or not the body's method", 400)
        name = params.get("uri") if method == "resources/read" else params.get("name")
        if method in ("tools/call", "prompts/get", "resources/read"):
            header_name = h.get("mcp-name")
            if header_name is None or header_name.strip() != name:
                raise RpcError(HEADER_MISMATCH, "Mcp-Name header missing or not the body's name", 400)
        if method == "tools/call":
            self.check_param_headers(request, params)

    def check_param_headers(self, request: Request, params: dict[str, Any]) -> None:
        spec = next((t for t in self.tools() if t["name"] == params.get("name")), None)
        args = params.get("arguments") or {}
        for prop, schema in ((spec or {}).get("inputSchema", {}).get("properties") or {}).items():
            header = schema.get("x-mcp-header") if isinstance(schema, dict) else None
            if header is None or prop not in args:
                continue
            raw = request.headers.get(f"mcp-param-{header}")
            if raw is None:
                raise RpcError(HEADER_MISMATCH, f"Mcp-Param-{header} header missing", 400)
            value = raw.strip()
            m = re.fullmatch(r"=\?base64\?(.*)\?=", value)
            if m:
                try:
                    value = base64.b64decode(m.group(1), validate=True).decode()
                except (ValueError, binascii.Error) as e:
                    raise RpcError(HEADER_MISMATCH, f"Mcp-Param-{header} is not valid base64", 400) from e
            if value != str(args[prop]):
                raise RpcError(HEADER_MISMATCH, f"Mcp-Param-{header} does not match argument {prop}", 400)

    @staticmethod
    def check_meta(request: Request, params: dict[str, Any]) -> dict[str, Any]:
        meta = params.get("_meta")
        if not isinstance(meta, dict):
            raise RpcError(INVALID_PARAMS, "params._meta is required", 400)
        version = meta.get(META + "protocolVersion")
        if not isinstance(version, str):
            raise RpcError(INVALID_PARAMS, "_meta lacks io.modelcontextprotocol/protocolVersion", 400)
        if not isinstance(meta.get(META + "clientCapabilities"), dict):
            raise RpcError(INVALID_PARAMS, "_meta lacks io.modelcontextprotocol/clientCapabilities", 400)
        header = request.headers.get("mcp-protocol-version")
        if header is not None and header.strip() != version:
            raise RpcError(HEADER_MISMATCH, "MCP-Protocol-Version header does not match _meta", 400)
        if version != VERSION:
            data = {"supported": [VERSION], "requested": version}
            raise RpcError(UNSUPPORTED_VERSION, f"Unsupported protocol version {version}", 400, data)
        return meta

    # --- handlers -----------------------------------------------------------------------
    async def handle(self, request: Request) -> Response:
        try:
            msg = json.loads(await request.body())
        except ValueError:
            return rpc_error(None, RpcError(PARSE_ERROR, "Parse error", 400))
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
            return rpc_error(None, RpcError(INVALID_REQUEST, "Not a JSON-RPC 2.0 message", 400))
        rid, method = msg.get("id"), msg.get("method")
        if not isinstance(method, str):
            return Response(status_code=202)  # a response to nothing we asked: accept and drop
        if rid is None:
            return Response(status_code=202)  # notifications need no answer
        params = msg.get("params")
        params = params if isinstance(params, dict) else {}
        try:
            self.check_headers(request, method, params)
            if method in REMOVED_METHODS or not hasattr(self, "m_" + method.replace("/", "_")):
                raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}", 404)
            meta = self.check_meta(request, params)
            handler = getattr(self, "m_" + method.replace("/", "_"))
            result = await handler(params, meta)
        except RpcError as e:
            return rpc_error(rid, e)
        if isinstance(result, Stream):
            return result.response(rid)
        if request.headers.get("accept", "").lstrip().startswith("text/event-stream"):
            return Stream(nothing(), final=result).response(rid)  # the client prefers SSE: oblige it
        return JSONResponse({"jsonrpc": "2.0", "id": rid, "result": result})

    async def m_server_discover(self, _p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        return {
            "resultType": "complete",
            "supportedVersions": [VERSION],
            "capabilities": CAPABILITIES,
            "instructions": "Fixtures for the 2026-07-28 conformance scenarios.",
            **TTL,
            "_meta": {META + "serverInfo": SERVER_INFO},
        }

    async def m_tools_list(self, _p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        return {"resultType": "complete", "tools": self.tools(), **TTL}

    async def m_prompts_list(self, _p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        return {"resultType": "complete", "prompts": self.prompts(), **TTL}

    async def m_resources_list(self, _p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        return {"resultType": "complete", "resources": RESOURCES, **TTL}

    async def m_resources_templates_list(self, _p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        return {"resultType": "complete", "resourceTemplates": TEMPLATES, **TTL}

    async def m_resources_read(self, p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        uri = p.get("uri")
        if uri == "test://static-text":
            body = "This is the content of the static text resource."
            contents = {"uri": uri, "mimeType": "text/plain", "text": body}
        elif uri == "test://static-binary":
            contents = {"uri": uri, "mimeType": "image/png", "blob": PNG_B64}
        elif isinstance(uri, str) and (m := re.fullmatch(r"test://template/([^/]+)/data", uri)):
            body = {"id": m.group(1), "templateTest": True, "data": f"Data for ID: {m.group(1)}"}
            contents = {"uri": uri, "mimeType": "application/json", "text": json.dumps(body)}
        else:
            raise RpcError(INVALID_PARAMS, "Resource not found", 200, {"uri": uri})
        return {"resultType": "complete", "contents": [contents], **TTL}

    async def m_completion_complete(self, p: dict[str, Any], _m: dict[str, Any]) -> dict[str, Any]:
        prefix = str((p.get("argument") or {}).get("value", ""))
        values = [v for v in ["paris", "park", "party", "test", "testing"] if v.startswith(prefix)]
        return {"resultType": "complete", "completion": {"values": values, "total": len(values), "hasMore": False}}

    async def m_subscriptions_listen(self, p: dict[str, Any], _m: dict[str, Any]) -> Stream:
        filt = p.get("notifications") if isinstance(p.get("notifications"), dict) else {}
        sid = self.next_subscription
        self.next_subscription += 1
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.listeners[sid] = (filt, queue)
        ack_params = {"notifications": filt, "_meta": {META + "subscriptionId": sid}}
        ack = {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": ack_params}

        async def events() -> AsyncIterator[dict[str, Any]]:
            try:
                yield ack
                while True:  # until the client goes away; the response never comes
                    yield await queue.get()
            finally:
                self.listeners.pop(sid, None)

        return Stream(events(), final=None)

    async def m_prompts_get(self, p: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        name, args = p.get("name"), p.get("arguments") or {}

        def user(content: dict[str, Any]) -> dict[str, Any]:
            return {"role": "user", "content": content}

        if name == "test_simple_prompt":
            messages = [user(text("This is a simple prompt for testing."))]
        elif name == "test_prompt_with_arguments":
            messages = [user(text(f"Prompt with arguments: arg1='{args.get('arg1')}', arg2='{args.get('arg2')}'"))]
        elif name == "test_prompt_with_embedded_resource":
            uri = args.get("resourceUri", "test://example-resource")
            res = {"uri": uri, "mimeType": "text/plain", "text": "Embedded resource"}
            messages = [
                user({"type": "resource", "resource": res}),
                user(text("Please process the embedded resource above.")),
            ]
        elif name == "test_prompt_with_image":
            messages = [
                user({"type": "image", "data": PNG_B64, "mimeType": "image/png"}),
                user(text("Please analyze the image above.")),
            ]
        elif name == "test_input_required_result_prompt":
            answer = accepted(p, "user_context")
            if answer is None:
                return input_required({"user_context": elicit("What context should the prompt use?", "context")})
            messages = [user(text(f"Answer with this context in mind: {answer.get('context', '')}"))]
        elif name == "test_dynamic_prompt" and self.dynamic_prompt:
            messages = [user(text("The dynamic prompt."))]
        else:
            raise RpcError(INVALID_PARAMS, f"Unknown prompt: {name}")
        return {"resultType": "complete", "messages": messages}

    async def m_tools_call(self, p: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any] | Stream:
        name, args = p.get("name"), p.get("arguments") or {}
        caps = meta.get(META + "clientCapabilities") or {}
        if "inputResponses" in p and not isinstance(p["inputResponses"], dict):
            raise RpcError(INVALID_PARAMS, "inputResponses must be an object")

        if name == "test_simple_text":
            return done(text("This is a simple text response for testing."))
        if name == "test_image_content":
            return done({"type": "image", "data": PNG_B64, "mimeType": "image/png"})
        if name == "test_audio_content":
            return done({"type": "audio", "data": WAV_B64, "mimeType": "audio/wav"})
        if name == "test_embedded_resource":
            body = "This is an embedded resource content."
            res = {"uri": "test://embedded-resource", "mimeType": "text/plain", "text": body}
            return done({"type": "resource", "resource": res})
        if name == "test_multiple_content_types":
            body = json.dumps({"test": "data", "value": 123})
            res = {"uri": "test://mixed-content-resource", "mimeType": "application/json", "text": body}
            return done(
                text("Multiple content types test:"),
                {"type": "image", "data": PNG_B64, "mimeType": "image/png"},
                {"type": "resource", "resource": res},
            )
        if name == "test_error_handling":
            return done(text("This tool intentionally returns an error for testing"), is_error=True)
        if name == "test_tool_with_progress":
            token = meta.get("progressToken")

            async def progress() -> AsyncIterator[dict[str, Any]]:
                for i, value in enumerate([0, 50, 100]):
                    if i:
                        await asyncio.sleep(0.05)
                    if token is not None:
                        params = {"progressToken": token, "progress": value, "total": 100}
                        yield {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}

            return Stream(progress(), final=done(text("Tool with progress executed successfully")))
        if name == "test_logging_tool":
            level = meta.get(META + "logLevel")

            async def logs() -> AsyncIterator[dict[str, Any]]:
                if level is None:  # the client did not ask for logs
                    return
                for message in ["Tool execution started", "Tool processing data", "Tool execution completed"]:
                    params = {"level": "info", "logger": "conformance", "data": message}
                    yield {"jsonrpc": "2.0", "method": "notifications/message", "params": params}

            return Stream(logs(), final=done(text("Tool with logging executed successfully")))
        if name == "test_missing_capability":
            if "sampling" not in caps:
                data = {"requiredCapabilities": {"sampling": {}}}
                raise RpcError(MISSING_CAPABILITY, "This tool needs the sampling capability", 400, data)
            return done(text("The client declared sampling."))
        if name == "test_trigger_tool_change":
            self.dynamic_tool = not self.dynamic_tool
            self.notify("toolsListChanged", "notifications/tools/list_changed")
            return done(text(f"test_dynamic_tool is now {'listed' if self.dynamic_tool else 'gone'}"))
        if name == "test_trigger_prompt_change":
            self.dynamic_prompt = not self.dynamic_prompt
            self.notify("promptsListChanged", "notifications/prompts/list_changed")
            return done(text(f"test_dynamic_prompt is now {'listed' if self.dynamic_prompt else 'gone'}"))
        if name == "test_dynamic_tool" and self.dynamic_tool:
            return done(text("The dynamic tool."))
        if name == "test_header_param":
            return done(text(f"region: {args.get('region')}"))
        if name == "json_schema_2020_12_tool":
            return done(text(f"received {json.dumps(args)}"))
        if (result := input_required_tool(name, p, caps)) is not None:
            return result
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}")


def input_required_tool(name: Any, p: dict[str, Any], caps: dict[str, Any]) -> dict[str, Any] | None:
    """The tools that ask the client for input (SEP-2322): an input_required result until the
    call carries the answers; None for any other tool."""
    if name in ("test_input_required_result_elicitation", "test_streaming_elicitation"):
        answer = accepted(p, "user_name")
        if answer is None:
            if "elicitation" not in caps:
                data = {"requiredCapabilities": {"elicitation": {}}}
                raise RpcError(MISSING_CAPABILITY, "This tool needs the elicitation capability", 400, data)
            return input_required({"user_name": elicit("What is your name?", "name")})
        return done(text(f"Hello, {answer.get('name', 'stranger')}!"))
    if name == "test_input_required_result_sampling":
        responses = responses_of(p)
        if "capital_question" not in responses:
            return input_required({"capital_question": sample("What is the capital of France?", 100)})
        content = (responses["capital_question"] or {}).get("content") or {}
        return done(text(f"The model said: {content.get('text', '')}"))
    if name == "test_input_required_result_list_roots":
        responses = responses_of(p)
        if "client_roots" not in responses:
            return input_required({"client_roots": ROOTS})
        roots = (responses["client_roots"] or {}).get("roots") or []
        return done(text("Roots: " + ", ".join(str(r.get("uri")) for r in roots if isinstance(r, dict))))
    if name in ("test_input_required_result_request_state", "test_input_required_result_tampered_state"):
        if "requestState" not in p:
            return input_required({"confirm": elicit("Please confirm", "ok", "boolean")}, {"tool": name, "round": 1})
        state = verify(p["requestState"])
        if state.get("tool") != name or accepted(p, "confirm") is None:
            raise RpcError(INVALID_PARAMS, "requestState or inputResponses do not belong to this call")
        return done(text("state-ok: confirmed"))
    if name == "test_input_required_result_multiple_inputs":
        wanted = {
            "user_name": elicit("What is your name?", "name"),
            "greeting": sample("Generate a greeting", 50),
            "client_roots": ROOTS,
        }
        if "requestState" in p:
            verify(p["requestState"])
        missing = {k: v for k, v in wanted.items() if k not in responses_of(p)}
        if missing:
            return input_required(missing, {"tool": name})
        return done(text("Got a name, a greeting and the roots."))
    if name == "test_input_required_result_multi_round":
        if "requestState" not in p:
            return input_required({"step1": elicit("Step 1: What is your name?", "name")}, {"round": 1})
        state = verify(p["requestState"])
        if state.get("round") == 1:
            first = accepted(p, "step1")
            if first is None:
                return input_required({"step1": elicit("Step 1: What is your name?", "name")}, {"round": 1})
            step2 = elicit("Step 2: What is your favorite color?", "color")
            return input_required({"step2": step2}, {"round": 2, "name": first.get("name")})
        second = accepted(p, "step2")
        if second is None:
            return input_required({"step2": elicit("Step 2: What is your favorite color?", "color")}, state)
        return done(text(f"{state.get('name')} likes {second.get('color')}."))
    if name == "test_input_required_result_capabilities":
        asks: dict[str, Any] = {}
        if "elicitation" in caps:
            asks["user_name"] = elicit("What is your name?", "name")
        if "sampling" in caps:
            asks["greeting"] = sample("Generate a greeting", 50)
        if "roots" in caps:
            asks["client_roots"] = ROOTS
        if not asks or responses_of(p):
            return done(text("Nothing more to ask."))
        return input_required(asks)
    return None


def responses_of(p: dict[str, Any]) -> dict[str, Any]:
    r = p.get("inputResponses")
    return r if isinstance(r, dict) else {}


def accepted(p: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The content of an accepted elicitation answer under `key`; None re-asks. A malformed
    answer (not an ElicitResult) is a protocol error."""
    if key not in responses_of(p):
        return None
    answer = responses_of(p)[key]
    if not isinstance(answer, dict) or not isinstance(answer.get("action"), str):
        raise RpcError(INVALID_PARAMS, f"inputResponses.{key} is not an elicitation result")
    if answer["action"] != "accept":
        return None
    content = answer.get("content")
    return content if isinstance(content, dict) else {}


class Stream:
    """An SSE answer: the request's notifications, then its result (or nothing, for a listen)."""

    def __init__(self, events: AsyncIterator[dict[str, Any]], final: dict[str, Any] | None) -> None:
        self.events, self.final = events, final

    def response(self, rid: Any) -> StreamingResponse:
        async def body() -> AsyncIterator[bytes]:
            async for event in self.events:
                yield sse(event)
            if self.final is not None:
                yield sse({"jsonrpc": "2.0", "id": rid, "result": self.final})

        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(body(), media_type="text/event-stream", headers=headers)


def sse(message: dict[str, Any]) -> bytes:
    return f"event: message\ndata: {json.dumps(message)}\n\n".encode()


async def nothing() -> AsyncIterator[dict[str, Any]]:
    return
    yield


def rpc_error(rid: Any, e: RpcError) -> JSONResponse:
    error: dict[str, Any] = {"code": e.code, "message": e.message}
    if e.data is not None:
        error["data"] = e.data
    return JSONResponse({"jsonrpc": "2.0", "id": rid, "error": error}, status_code=e.status)


LOCAL = re.compile(r"(localhost|127\.0\.0\.1|\[::1\])(:\d+)?")


def local_host_and_origin(request: Request) -> bool:
    host = request.headers.get("host", "")
    origin = request.headers.get("origin")
    if not LOCAL.fullmatch(host):
        return False
    return origin is None or bool(re.fullmatch(r"https?://" + LOCAL.pattern, origin))


def main() -> None:
    server = Server()

    async def mcp(request: Request) -> Response:
        if not local_host_and_origin(request):
            return JSONResponse({"error": "forbidden Host or Origin"}, status_code=403)
        if request.method != "POST":
            return Response(status_code=405, headers={"Allow": "POST"})  # no GET stream in 2026-07-28
        return await server.handle(request)

    serve(Recorder(Starlette(routes=[Route("/mcp", mcp, methods=["GET", "POST", "DELETE"])])))


if __name__ == "__main__":
    main()
