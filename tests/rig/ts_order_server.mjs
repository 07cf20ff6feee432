// A stateful Streamable HTTP server on the TypeScript SDK 1.x (tests/node/node_modules) whose two
// tools ask the client something through a server request that is NOT tied to the tools/call
// (no related request id), so the SDK sends it on the session's GET stream, and drops it when no
// GET stream is open at that moment. A client that opens its GET stream and then calls one of
// these tools therefore depends on the GET reaching this server before the call: the ordering
// the gateway must keep (tests/it/gateway_order.rs).
//
//   node ts_order_server.mjs [--get=405|--get=stall]
//       prints `LISTENING <port>` (a port the kernel chose) and serves /mcp until its stdin
//       closes; `--get=405` answers every GET with 405 (a server without GET streams),
//       `--get=stall` never answers a session's GET (and prints `GET STALLED <session>`)
//
// Tools (arguments: `timeoutMs`, how long the server waits for the client's answer):
//   ask_sampling     sends sampling/createMessage on the GET stream
//   ask_elicitation  sends elicitation/create (a form asking for `answer`) on the GET stream
// Each returns one text item holding JSON: {outcome: "answered" | "unanswered", answer,
// getFirst}; `getFirst` says whether this session's GET request had reached the server before
// the call did. An unanswered request makes the result an error (isError).

import { createRequire } from "node:module";
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));

const { Server } = await sdk("server/index.js");
const { StreamableHTTPServerTransport } = await sdk("server/streamableHttp.js");
const types = await sdk("types.js");

const getMode = process.argv.slice(2).find((a) => a.startsWith("--get="))?.slice("--get=".length);

const TIMEOUT_SCHEMA = {
  type: "object",
  properties: {
    timeoutMs: {
      type: "integer",
      minimum: 1,
      description: "How long to wait for the client's answer, in milliseconds (default 10000).",
    },
  },
  additionalProperties: false,
};

const TOOLS = [
  {
    name: "ask_sampling",
    title: "Ask the client for a sample",
    description:
      "Sends one sampling/createMessage request to the connected client over the session's " +
      "standalone GET stream (not tied to this call) and returns the text the client's model " +
      "produced. Use it to check that server-initiated requests reach the client. Returns JSON " +
      "text with `outcome` (answered or unanswered), `answer` and `getFirst`; fails with " +
      "isError when the client does not answer within timeoutMs.",
    inputSchema: TIMEOUT_SCHEMA,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: "ask_elicitation",
    title: "Ask the user a question",
    description:
      "Sends one elicitation/create form request (a single required string field `answer`) to " +
      "the connected client over the session's standalone GET stream (not tied to this call) " +
      "and returns what the user submitted. Use it to check that server-initiated requests " +
      "reach the client. Returns JSON text with `outcome` (answered or unanswered), `answer` and " +
      "`getFirst`; fails with isError when the client does not answer within timeoutMs.",
    inputSchema: TIMEOUT_SCHEMA,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
];

// Per session: its transport, and whether a GET for it has arrived yet.
const sessions = new Map();

function newServer(state) {
  const server = new Server({ name: "rig-ts-order-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(types.CallToolRequestSchema, async (req) => {
    const getFirst = state.getArrived;
    const timeout = req.params.arguments?.timeoutMs ?? 10000;
    const reply = (outcome, answer) => ({
      content: [{ type: "text", text: JSON.stringify({ outcome, answer, getFirst }) }],
      isError: outcome !== "answered",
    });
    try {
      // No relatedRequestId in the options: the SDK routes the request to the GET stream.
      if (req.params.name === "ask_sampling") {
        const r = await server.createMessage(
          { messages: [{ role: "user", content: { type: "text", text: "order check" } }], maxTokens: 8 },
          { timeout },
        );
        return reply("answered", r.content?.text ?? "");
      }
      if (req.params.name === "ask_elicitation") {
        const r = await server.elicitInput(
          {
            message: "order check",
            requestedSchema: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
          },
          { timeout },
        );
        return reply("answered", `${r.action}:${r.content?.answer ?? ""}`);
      }
    } catch (e) {
      return reply("unanswered", String(e?.message ?? e));
    }
    return { content: [{ type: "text", text: `unknown tool ${req.params.name}` }], isError: true };
  });
  return server;
}

const httpServer = http.createServer(async (req, res) => {
  if (!req.url.startsWith("/mcp")) {
    res.writeHead(404).end();
    return;
  }
  const sid = req.headers["mcp-session-id"];
  const known = sid !== undefined ? sessions.get(sid) : undefined;
  if (known) {
    if (req.method === "GET" && getMode === "405") {
      res.writeHead(405, { allow: "POST, DELETE" }).end();
      return;
    }
    if (req.method === "GET" && getMode === "stall") {
      console.log(`GET STALLED ${sid}`);
      return;
    }
    // Noted on arrival, before the SDK sees the request.
    if (req.method === "GET") known.getArrived = true;
    await known.transport.handleRequest(req, res);
    return;
  }
  if (sid !== undefined || req.method !== "POST") {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "unknown or missing session" }, id: null }));
    return;
  }
  // A new session: the SDK accepts only an initialize here.
  const state = { getArrived: false, transport: undefined };
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, state),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  state.transport = transport;
  await newServer(state).connect(transport);
  await transport.handleRequest(req, res);
});

httpServer.listen(0, "127.0.0.1", () => {
  console.log(`LISTENING ${httpServer.address().port}`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
