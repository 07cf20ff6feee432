// An MCP client built on the TypeScript SDK (@modelcontextprotocol/sdk, installed in tests/node),
// the second independent client the Rust integration tests drive through the gateway. It prints
// one JSON object on stdout describing what it saw; the Rust side asserts on it.
//
//   node ts_client.mjs list URL              initialize, list every page (following nextCursor)
//   node ts_client.mjs call URL TOOL ARGS    initialize, list, call TOOL with ARGS (JSON)
//   node ts_client.mjs everything URL        the server-everything tour (roots, sampling and
//                                            elicitation declared): list, echo, progress,
//                                            sampling, elicitation, roots, logging, then DELETE
//   node ts_client.mjs tour URL [URL ...]    per URL: initialize, call `search_issues` and
//                                            `do_thing`, list, call `do_thing` again (the SDK 2.x
//                                            matrix, gateway_sdk2.rs); prints {"runs": [...]}

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Resolve the SDK from tests/node/node_modules whatever the working directory.
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));

const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const types = await sdk("types.js");

const [command, url, tool, toolArgs] = process.argv.slice(2);

// One connection per URL of the SDK 2.x matrix: initialize, list, a visible call, a poor one.
async function tourOne(target) {
  const out = { url: target };
  const c = new Client({ name: "rig-ts-client", version: "1.0.0" }, { capabilities: {} });
  const t = new StreamableHTTPClientTransport(new URL(target));
  const summarize = (r) => ({
    isError: !!r.isError,
    text: (r.content ?? []).filter((x) => x.type === "text").map((x) => x.text).join("\n"),
  });
  try {
    await c.connect(t);
    out.protocolVersion = t.protocolVersion ?? null;
    out.serverName = c.getServerVersion()?.name ?? null;
    out.sessionId = t.sessionId ?? null;
    const call = async (name, args) => {
      try {
        return { result: summarize(await c.callTool({ name, arguments: args })) };
      } catch (e) {
        return { error: { message: String(e.message ?? e), code: e.code ?? null, data: e.data ?? null } };
      }
    };
    out.visible = await call("search_issues", { query: "crash", state: "all" });
    out.poor = await call("do_thing", { a: "x", b: 1 });
    const tools = [];
    let cursor;
    for (;;) {
      const page = await c.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    out.tools = tools;
    out.poorAgain = await call("do_thing", { a: "x", b: 1 });
    if (t.sessionId) await t.terminateSession();
    await c.close();
  } catch (e) {
    out.fatal = String(e?.stack ?? e);
  }
  return out;
}

if (command === "tour") {
  const runs = [];
  for (const target of process.argv.slice(3)) runs.push(await tourOne(target));
  process.stdout.write(JSON.stringify({ client: "ts1", runs }) + "\n");
  process.exit(0);
}
if (!["list", "call", "everything"].includes(command) || !url) {
  console.error("usage: ts_client.mjs list|call|everything URL [TOOL ARGS]");
  process.exit(2);
}

const seen = { notifications: [], logs: [], sampling: [], elicitations: [], rootsRequests: 0 };
let listChanged;
const listChangedSeen = new Promise((resolve) => (listChanged = resolve));

const capabilities =
  command === "everything" ? { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } } : {};
const client = new Client({ name: "rig-ts-client", version: "1.0.0" }, { capabilities });
client.fallbackNotificationHandler = async (n) => {
  seen.notifications.push(n.method);
};
client.setNotificationHandler(types.LoggingMessageNotificationSchema, (n) => {
  seen.notifications.push(n.method);
  seen.logs.push({ level: n.params.level, data: n.params.data });
});
client.setNotificationHandler(types.ToolListChangedNotificationSchema, (n) => {
  seen.notifications.push(n.method);
  listChanged(true);
});
if (command === "everything") {
  client.setRequestHandler(types.CreateMessageRequestSchema, async (req) => {
    const first = req.params.messages[0];
    seen.sampling.push({ prompt: first?.content?.text ?? "", maxTokens: req.params.maxTokens });
    return {
      role: "assistant",
      content: { type: "text", text: "sampled answer from the rig client" },
      model: "rig-model",
      stopReason: "endTurn",
    };
  });
  client.setRequestHandler(types.ElicitRequestSchema, async (req) => {
    seen.elicitations.push({ message: req.params.message });
    return { action: "accept", content: { name: "Rig Client", check: true, integer: 7 } };
  });
  client.setRequestHandler(types.ListRootsRequestSchema, async () => {
    seen.rootsRequests += 1;
    return { roots: [{ uri: "file:///rig/root", name: "rig-root" }] };
  });
}

const transport = new StreamableHTTPClientTransport(new URL(url));
const out = {};

async function listAll() {
  const pages = [];
  const nextCursors = [];
  const tools = [];
  let cursor;
  for (;;) {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    pages.push(page.tools.map((t) => t.name));
    tools.push(...page.tools);
    nextCursors.push(page.nextCursor ?? null);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return { pages, nextCursors, tools };
}

const text = (r) =>
  (r.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
const summary = (r) => ({ isError: !!r.isError, text: text(r), structuredContent: r.structuredContent ?? null });

async function call(name, args, options) {
  try {
    return { result: summary(await client.callTool({ name, arguments: args }, undefined, options)) };
  } catch (e) {
    return { error: { message: String(e.message ?? e), code: e.code ?? null, data: e.data ?? null } };
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

try {
  await client.connect(transport);
  out.protocolVersion = transport.protocolVersion ?? null;
  out.serverName = client.getServerVersion()?.name ?? null;
  out.sessionId = transport.sessionId ?? null;

  if (command === "list") {
    Object.assign(out, await listAll());
  } else if (command === "call") {
    out.list = await listAll();
    const progress = [];
    Object.assign(out, await call(tool, JSON.parse(toolArgs ?? "{}"), { onprogress: (p) => progress.push([p.progress, p.total ?? null]) }));
    out.progress = progress;
    await sleep(100);
    out.logs = seen.logs;
  } else {
    out.listChangedSeen = await Promise.race([listChangedSeen, sleep(1500).then(() => false)]);
    const listed = await listAll();
    out.tools = listed.tools;
    out.echo = (await call("echo", { message: "hello through the gateway" })).result;
    const progress = [];
    out.longRunning = (
      await call("trigger-long-running-operation", { duration: 0.4, steps: 4 }, {
        onprogress: (p) => progress.push([p.progress, p.total ?? null]),
      })
    ).result;
    out.progress = progress;
    const names = new Set(listed.tools.map((t) => t.name));
    if (names.has("trigger-sampling-request")) {
      const r = await call("trigger-sampling-request", { prompt: "say hi", maxTokens: 20 });
      out.sampling = { result: r.result, requests: seen.sampling };
    }
    if (names.has("trigger-elicitation-request")) {
      const r = await call("trigger-elicitation-request", {});
      out.elicitation = { result: r.result, requests: seen.elicitations };
    }
    if (names.has("get-roots-list")) {
      const r = await call("get-roots-list", {});
      out.roots = { result: r.result, requests: seen.rootsRequests };
    }
    await client.setLoggingLevel("debug");
    const before = seen.logs.length;
    await call("toggle-simulated-logging", {});
    const start = Date.now();
    while (seen.logs.length === before && Date.now() - start < 8000) await sleep(20);
    out.logWaitSeconds = (Date.now() - start) / 1000;
    out.logs = seen.logs;
    await call("toggle-simulated-logging", {});
  }
  out.notifications = seen.notifications;
  // End the session explicitly (DELETE), as a well-behaved client does.
  await transport.terminateSession();
  out.terminated = transport.sessionId === undefined;
  await client.close();
} catch (e) {
  out.fatal = String(e?.stack ?? e);
}
process.stdout.write(JSON.stringify(out) + "\n");
process.exit(out.fatal ? 1 : 0);
