// The TypeScript SDK client (@modelcontextprotocol/sdk) signing in through the gateway as a
// user would: its first request gets the gateway's 401, the SDK reads the protected resource
// metadata named there, discovers the authorization server, registers itself (dynamic client
// registration), and sends the user to sign in (authorization code with PKCE). Here the "user"
// is this script answering oidc-provider's dev sign-in and consent forms over HTTP as a
// browser would. Then it lists tools and optionally calls one, and prints one JSON object.
//
//   node ts_oauth_client.mjs URL LOGIN [TOOL]

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));
const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { UnauthorizedError } = await sdk("client/auth.js");

const [url, login, tool] = process.argv.slice(2);
const REDIRECT = "http://127.0.0.1:9/callback"; // never listened on: the code is read from the redirect

const seen = { steps: [] };
let clientInfo, tokens, verifier, authorizationUrl;
const provider = {
  get redirectUrl() {
    return REDIRECT;
  },
  get clientMetadata() {
    return {
      client_name: "rig-ts-oauth-client",
      application_type: "native",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  },
  clientInformation: () => clientInfo,
  saveClientInformation: (info) => {
    clientInfo = info;
    seen.steps.push("registered");
  },
  tokens: () => tokens,
  saveTokens: (t) => {
    tokens = t;
    seen.steps.push("token");
  },
  redirectToAuthorization: (u) => {
    authorizationUrl = u;
    seen.steps.push("redirect");
  },
  saveCodeVerifier: (v) => (verifier = v),
  codeVerifier: () => verifier,
};

// The browser: follows redirects by hand with a cookie jar, fills the login and consent forms.
async function signIn(start) {
  const jar = new Map();
  let next = { url: start.toString(), method: "GET", body: undefined };
  for (let hop = 0; hop < 20; hop++) {
    const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (next.body) headers["content-type"] = "application/x-www-form-urlencoded";
    const resp = await fetch(next.url, { method: next.method, body: next.body, headers, redirect: "manual" });
    for (const c of resp.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    const location = resp.headers.get("location");
    if (location) {
      const target = new URL(location, next.url);
      if (target.toString().startsWith(REDIRECT)) {
        const code = target.searchParams.get("code");
        if (!code) throw new Error(`no code in the redirect: ${target}`);
        return code;
      }
      next = { url: target.toString(), method: "GET" };
      continue;
    }
    const html = await resp.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`sign-in page without a form (${resp.status}): ${html.slice(0, 300)}`);
    const form = html.includes('name="login"')
      ? new URLSearchParams({ prompt: "login", login, password: "any" })
      : new URLSearchParams({ prompt: "consent" });
    seen.steps.push(html.includes('name="login"') ? "login" : "consent");
    next = { url: new URL(action, next.url).toString(), method: "POST", body: form.toString() };
  }
  throw new Error("too many hops while signing in");
}

async function connect() {
  const client = new Client({ name: "rig-ts-oauth-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
}

try {
  let client;
  try {
    client = await connect();
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) throw e;
    const code = await signIn(authorizationUrl);
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await transport.finishAuth(code);
    client = await connect();
  }
  const { tools } = await client.listTools();
  const out = { ...seen, tools: tools.map((t) => t.name), resource: authorizationUrl?.searchParams.get("resource") };
  if (tool) {
    try {
      out.call = await client.callTool({ name: tool, arguments: {} });
    } catch (e) {
      out.callError = { code: e.code, message: e.message };
    }
  }
  await client.close();
  console.log(JSON.stringify(out));
} catch (e) {
  console.log(JSON.stringify({ fatal: String(e?.stack || e), ...seen }));
}
process.exit(0);
