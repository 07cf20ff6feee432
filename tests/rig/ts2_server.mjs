// An MCP server on the TypeScript SDK 2.x (@modelcontextprotocol/server, installed in tests/node),
// for the SDK 2.x matrix (tests/it/gateway_sdk2.rs). It is served the way SDK 2.x recommends:
// `createMcpHandler(factory)`, one fresh McpServer per HTTP request, answering 2026-07-28
// requests (server/discover, then self-contained requests) and, by default, 2025-era requests
// statelessly (`initialize` works, but no session id is issued and GET/DELETE get 405).
//
// Tools: the same three as py2_server.py: `search_issues` and `create_issue` (well described)
// and `do_thing` (no description, undocumented parameters: enforce must hide it).
//
//   node ts2_server.mjs [--stdio]
//
// Prints `LISTENING <port>` (a port chosen by the kernel on 127.0.0.1), exits when stdin closes,
// and records every request like rig_common.py's Recorder: `GET /_rig/received` lists them,
// `POST /_rig/reset` clears the list. `--stdio`: `serveStdio(factory)` on stdin and stdout
// instead (the opening exchange, `server/discover` or `initialize`, picks the era).

import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const { McpServer, createMcpHandler, fromJsonSchema } = await import(require.resolve("@modelcontextprotocol/server"));

const ISSUES = [
  { id: 3, title: "Crash when the config file is empty", state: "open" },
  { id: 2, title: "Typo in the README", state: "closed" },
  { id: 1, title: "Slow start on large repositories", state: "open" },
];

const text = (t) => ({ content: [{ type: "text", text: t }] });

function build() {
  const server = new McpServer(
    { name: "rig-ts2", version: "2.0.0" },
    { instructions: "Issue tracker test server on the TypeScript SDK 2.x." },
  );
  server.registerTool(
    "search_issues",
    {
      title: "Search issues",
      description:
        "Search the project's issue tracker and return matching issues, newest first.\n\n" +
        "Use this before filing a report with `create_issue`, to find an existing issue about the same " +
        "problem. Read-only. Returns at most `limit` issues, one per line as `#N [state] title`, or the " +
        'text "no issues" when nothing matches. An empty query matches every issue.',
      inputSchema: fromJsonSchema({
        type: "object",
        properties: {
          query: { type: "string", description: "Free-text query matched against issue titles, case-insensitive" },
          state: {
            type: "string",
            enum: ["open", "closed", "all"],
            default: "open",
            description: "Only issues in this state; 'all' for both",
          },
          limit: {
            type: "integer",
            minimum: 1,
            maximum: 100,
            default: 20,
            description: "Largest number of issues to return (1-100)",
          },
        },
        required: ["query"],
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ query, state = "open", limit = 20 }) => {
      const q = query.toLowerCase();
      const hits = ISSUES.filter((i) => i.title.toLowerCase().includes(q) && (state === "all" || i.state === state));
      const lines = hits.slice(0, limit).map((i) => `#${i.id} [${i.state}] ${i.title}`);
      return text(lines.length ? lines.join("\n") : "no issues");
    },
  );
  server.registerTool(
    "create_issue",
    {
      title: "Create issue",
      description:
        "File a new issue in the project's issue tracker and return its number.\n\n" +
        "Use `search_issues` first to avoid duplicates. Each call adds a new issue (not idempotent); " +
        "existing issues are never changed. Fails if the title is empty.",
      inputSchema: fromJsonSchema({
        type: "object",
        properties: {
          title: { type: "string", description: "One-line summary of the problem, at most 120 characters" },
          body: { type: "string", description: "Markdown description: steps to reproduce, expected and actual result" },
        },
        required: ["title", "body"],
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ title }) => {
      if (!title.trim()) throw new Error("title must not be empty");
      return text(`created issue #${ISSUES.length + 1}: ${title}`);
    },
  );
  // The deliberately poor definition.
  server.registerTool(
    "do_thing",
    {
      inputSchema: fromJsonSchema({
        type: "object",
        properties: { a: { type: "string" }, b: { type: "integer" } },
        required: ["a", "b"],
      }),
    },
    async ({ a, b }) => text(`${a}${b}`),
  );
  return server;
}

const handler = createMcpHandler(() => build());

// What the rig's Python Recorder notes about each request.
const INTERESTING = ["host", "origin", "accept", "content-type", "mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name"];
const received = [];

function summary(m) {
  if (!m || typeof m !== "object") return { kind: "other" };
  const out = {};
  if ("method" in m) out.method = m.method;
  if ("id" in m) out.id = m.id;
  if ("result" in m || "error" in m) out.kind = "response";
  if (m.method === "tools/call") out.tool = m.params?.name;
  return out;
}

function sendJson(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}

const httpServer = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, `http://${req.headers.host ?? "127.0.0.1"}`);
    if (url.pathname === "/_rig/received") return sendJson(res, 200, received);
    if (url.pathname === "/_rig/reset") {
      received.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (url.pathname !== "/mcp") return sendJson(res, 404, { error: "not found" });
    const body = req.method === "POST" ? await readBody(req) : undefined;
    const entry = { http: req.method, path: url.pathname, query: url.search.replace(/^\?/, ""), headers: {} };
    for (const h of INTERESTING) if (req.headers[h] !== undefined) entry.headers[h] = req.headers[h];
    if (body) {
      try {
        const parsed = JSON.parse(body.toString("utf8"));
        entry.messages = (Array.isArray(parsed) ? parsed : [parsed]).map(summary);
        entry.batch = Array.isArray(parsed);
      } catch {
        entry.messages = [];
        entry.unparsable = true;
      }
    }
    received.push(entry);

    // node:http to a web-standard Request, and the Response back, streaming SSE as it comes.
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
      else if (v !== undefined) headers.set(k, v);
    }
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = new Request(url, { method: req.method, headers, body, signal: abort.signal });
    const response = await handler.fetch(request);
    const out = {};
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out);
    if (response.body) {
      for await (const chunk of response.body) res.write(chunk);
    }
    res.end();
  } catch (e) {
    if (!res.headersSent) sendJson(res, 500, { error: String(e?.stack ?? e) });
    else res.destroy();
  }
});

if (process.argv.includes("--stdio")) {
  const { serveStdio } = await import(require.resolve("@modelcontextprotocol/server/stdio"));
  serveStdio(() => build());
} else {
  httpServer.listen(0, "127.0.0.1", () => {
    process.stdout.write(`LISTENING ${httpServer.address().port}\n`);
  });
  process.stdin.on("end", () => process.exit(0));
  process.stdin.on("error", () => process.exit(0));
  process.stdin.resume();
}
