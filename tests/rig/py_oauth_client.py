"""The Python SDK client signing in through the gateway with the SDK's own OAuth support, on
SDK 1.x (`.venv-mcp`) or 2.x (`.venv-mcp2`), whichever runs it. Its first request gets the
gateway's 401; the SDK's `httpx` auth flow reads the protected resource metadata named there,
discovers the authorization server and gets a token; then the client lists tools and, when
asked, calls one. Prints one JSON object (`fatal` when the run failed as a whole).

    python py_oauth_client.py code URL LOGIN [TOOL]

Authorization code with PKCE after dynamic client registration. The "user" is this script
answering oidc-provider's dev sign-in and consent forms over plain HTTP as a browser would
(standard library only, so both SDKs' venvs run it alike); the code and state are read from
the redirect to a callback URL nobody listens on.

    python py_oauth_client.py suite URL

The code flow as `alice`, listing only, with the URL last: the command the conformance suite's
client scenarios run (the suite plays the server and its authorization server, and appends
the server's URL).

    python py_oauth_client.py client-credentials URL ISSUER CLIENT_ID SECRET [TOOL]

Client credentials (`ClientCredentialsOAuthProvider`): a service with its own registration at
ISSUER (the SDK refuses to send its secret to an authorization server the metadata names
otherwise).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import sys
import urllib.parse
from typing import Any

import mcp
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

SDK2 = hasattr(mcp, "Client")
if SDK2:
    import httpx2 as httpx
    from mcp.shared.auth import AuthorizationCodeResult
else:
    import httpx

REDIRECT = "http://127.0.0.1:9/callback"  # never listened on: the code is read from the redirect
steps: list[str] = []
seen: dict[str, Any] = {}


class Memory:
    """The SDK's token storage, kept in memory for one run."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        steps.append("token")
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        if self.client is None:
            steps.append("registered")
        self.client = client_info


def browse(start: str, login: str) -> dict[str, str]:
    """Follows the sign-in from the authorization URL to the callback, with a cookie jar, and
    returns the callback's query parameters."""
    jar: dict[str, str] = {}
    url, method, body = start, "GET", None
    for _hop in range(20):
        parts = urllib.parse.urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        headers = {"cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}
        if body is not None:
            headers["content-type"] = "application/x-www-form-urlencoded"
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        for cookie in resp.headers.get_all("set-cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            jar[name] = value
        location = resp.getheader("location")
        html = resp.read().decode("utf-8", "replace")
        conn.close()
        if location:
            target = urllib.parse.urljoin(url, location)
            if target.startswith(REDIRECT):
                query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(target).query))
                if "code" not in query:
                    raise RuntimeError(f"no code in the redirect: {target}")
                return query
            url, method, body = target, "GET", None
            continue
        action = re.search(r'action="([^"]+)"', html)
        if not action:
            raise RuntimeError(f"sign-in page without a form ({resp.status}): {html[:300]}")
        is_login = 'name="login"' in html
        steps.append("login" if is_login else "consent")
        form = {"prompt": "login", "login": login, "password": "any"} if is_login else {"prompt": "consent"}
        url, method, body = urllib.parse.urljoin(url, action.group(1)), "POST", urllib.parse.urlencode(form)
    raise RuntimeError("too many hops while signing in")


def code_flow(url: str, login: str) -> OAuthClientProvider:
    callback: dict[str, str] = {}

    async def redirect(authorization_url: str) -> None:
        steps.append("redirect")
        seen["resource"] = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorization_url).query)).get("resource")
        callback.update(await asyncio.to_thread(browse, authorization_url, login))

    async def come_back() -> Any:
        if SDK2:
            return AuthorizationCodeResult(code=callback["code"], state=callback.get("state"), iss=callback.get("iss"))
        return callback["code"], callback.get("state")

    metadata = OAuthClientMetadata(
        client_name="rig-py-oauth-client",
        redirect_uris=[REDIRECT],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    return OAuthClientProvider(url, metadata, Memory(), redirect_handler=redirect, callback_handler=come_back)


def client_credentials(url: str, issuer: str, client_id: str, secret: str) -> OAuthClientProvider:
    scope = {"scope" if SDK2 else "scopes": "mcp tools:read"}  # renamed in 2.x
    return ClientCredentialsOAuthProvider(url, Memory(), client_id, secret, issuer=issuer, **scope)


async def session_v1(url: str, auth: Any, tool: str | None) -> dict[str, Any]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with httpx.AsyncClient(auth=auth, timeout=60) as http_client:
        async with streamable_http_client(url, http_client=http_client) as (read, write, _sid):
            async with ClientSession(read, write) as session:
                await session.initialize()
                out: dict[str, Any] = {"tools": [t.name for t in (await session.list_tools()).tools]}
                if tool:
                    out.update(await call(session.call_tool, tool))
                return out


async def session_v2(url: str, auth: Any, tool: str | None) -> dict[str, Any]:
    from mcp.client.streamable_http import streamable_http_client

    async with httpx.AsyncClient(auth=auth, timeout=60) as http_client:
        async with mcp.Client(streamable_http_client(url, http_client=http_client)) as client:
            out: dict[str, Any] = {"tools": [t.name for t in (await client.list_tools()).tools]}
            out["protocolVersion"] = client.protocol_version
            if tool:
                out.update(await call(client.call_tool, tool))
            return out


async def call(call_tool: Any, tool: str) -> dict[str, Any]:
    try:
        result = await call_tool(tool, {})
        text = "\n".join(getattr(c, "text", "") for c in result.content)
        return {"call": {"isError": bool(getattr(result, "is_error", getattr(result, "isError", False))), "text": text}}
    except Exception as e:  # an MCP error answer
        err = getattr(e, "error", None)
        return {"callError": {"type": type(e).__name__, "message": str(e), "code": getattr(err, "code", None)}}


async def main() -> dict[str, Any]:
    mode, url, *rest = sys.argv[1:]
    if mode == "code":
        auth, tool = code_flow(url, rest[0]), (rest[1] if len(rest) > 1 else None)
    elif mode == "suite":
        auth, tool = code_flow(url, "alice"), None
    else:
        auth, tool = client_credentials(url, *rest[:3]), (rest[3] if len(rest) > 3 else None)
    run = session_v2 if SDK2 else session_v1
    return await run(url, auth, tool)


if __name__ == "__main__":
    try:
        result = asyncio.run(main())
    except BaseException as e:  # noqa: BLE001 - reported to the Rust side, which fails the test
        result = {"fatal": f"{type(e).__name__}: {e!r}"}
    print(json.dumps({"sdk": 2 if SDK2 else 1, "steps": steps, **seen, **result}))
