"""An MCP server that requires OAuth (Python SDK 1.30 FastMCP as a resource server), for the
gateway's "an upstream's own OAuth through the gateway" tests. Bearer tokens are JWTs from the
rig's oidc-provider, checked here against its JWKS (signature, `iss`, `exp`, an accepted `aud`);
without one, `/mcp` answers 401 with `WWW-Authenticate: Bearer ... resource_metadata="<this
server's /.well-known/oauth-protected-resource/mcp>"`, and that document names the issuer.

    python oauth_server.py ISSUER [--challenge-metadata URL]

`--challenge-metadata URL`: a hostile upstream's challenge, naming URL (another host) as its
metadata; the document is still served at the usual place.

Accepted audiences: this server's own `/mcp` URL, and any added with `POST /_rig/audience`
(body: the URL), as an operator configures a server behind a gateway to accept tokens for the
gateway's route. Tool `whoami` answers the token's `sub` and `aud`. Recorded (rig_common's
`Recorder`); prints `LISTENING <port>`.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

import jwt
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp.server.auth.middleware.auth_context import get_access_token  # noqa: E402
from mcp.server.auth.provider import AccessToken  # noqa: E402
from mcp.server.auth.settings import AuthSettings  # noqa: E402
from mcp.server.fastmcp import FastMCP  # noqa: E402
from rig_common import Recorder, bind, serve  # noqa: E402


class OidcVerifier:
    def __init__(self, issuer: str, audiences: list[str]) -> None:
        self.issuer = issuer
        self.audiences = audiences
        self.keys = jwt.PyJWKClient(f"{issuer}/jwks")

    def _check(self, token: str) -> AccessToken | None:
        try:
            key = self.keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(token, key.key, algorithms=["RS256"], issuer=self.issuer, audience=self.audiences)
        except jwt.PyJWTError as e:
            print(f"token refused: {e}", file=sys.stderr, flush=True)
            return None
        aud = claims["aud"] if isinstance(claims["aud"], str) else claims["aud"][0]
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id", "")),
            scopes=str(claims.get("scope", "")).split(),
            expires_at=claims.get("exp"),
            resource=aud,
            subject=claims.get("sub"),
        )

    async def verify_token(self, token: str) -> AccessToken | None:
        return await asyncio.to_thread(self._check, token)


class Challenge:
    """Replaces the `resource_metadata` of every 401 challenge with another URL."""

    def __init__(self, app: Any, url: str) -> None:
        self.app, self.url = app, url

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def rewrite(event: Any) -> None:
            if event["type"] == "http.response.start" and event["status"] == 401:
                headers = []
                for k, v in event["headers"]:
                    if k.lower() == b"www-authenticate":
                        v = re.sub(rb'resource_metadata="[^"]*"', f'resource_metadata="{self.url}"'.encode(), v)
                    headers.append((k, v))
                event = {**event, "headers": headers}
            await send(event)

        await self.app(scope, receive, rewrite)


def main() -> None:
    issuer = sys.argv[1]
    hostile = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--challenge-metadata" else None
    sock = bind()
    own = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    verifier = OidcVerifier(issuer, [own])
    mcp = FastMCP(
        "oauth-rig",
        instructions="An MCP server that needs an OAuth token for every request.",
        host="127.0.0.1",
        token_verifier=verifier,
        auth=AuthSettings(
            issuer_url=issuer,
            resource_server_url=own,
            required_scopes=["mcp"],
            validate_token_resource=False,  # the verifier checks `aud` itself
        ),
    )

    @mcp.tool()
    def whoami() -> str:
        """Report who the bearer token of this request names: its subject and its audience,
        separated by a space."""
        token = get_access_token()
        return f"{token.subject if token else '-'} {token.resource if token else '-'}"

    async def add_audience(request: Request) -> JSONResponse:
        verifier.audiences.append((await request.body()).decode().strip())
        return JSONResponse({"audiences": verifier.audiences})

    async def metadata(_request: Request) -> JSONResponse:
        # FastMCP's own document writes the issuer as a URL with a trailing slash, which strict
        # clients (SDK 2.x) rightly refuse to match with the issuer oidc-provider names itself.
        return JSONResponse(
            {"resource": own, "authorization_servers": [issuer], "scopes_supported": ["mcp"], "bearer_methods_supported": ["header"]}
        )

    app = mcp.streamable_http_app()
    app.router.routes.insert(0, Route("/.well-known/oauth-protected-resource/mcp", metadata, methods=["GET"]))
    app.router.routes.append(Route("/_rig/audience", add_audience, methods=["POST"]))
    serve(Recorder(Challenge(app, hostile) if hostile else app), sock)


if __name__ == "__main__":
    main()
