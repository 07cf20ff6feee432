// An MCP client on the TypeScript SDK 2.x (@modelcontextprotocol/client, installed in
// tests/node), for the SDK 2.x matrix (tests/it/gateway_sdk2.rs). By default it connects the
// way SDK 2.x does by default, with the 2025 `initialize` handshake; `--negotiate auto` makes it
// probe `server/discover` first and speak 2026-07-28 to servers that answer it.
//
//   node ts2_client.mjs tour [--negotiate legacy|auto] URL [URL ...]
//
// For each URL, one connection: connect; call `search_issues` (a well described tool every rig
// server has) and `do_thing` (the deliberately poor one, which an enforcing gateway hides and
// refuses) before listing anything; list every page of tools; call `do_thing` again; close. Prints one JSON object, `{"runs": [...]}`,
// a run per URL in order; a run that failed as a whole carries `fatal`.

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const { Client, StreamableHTTPClientTransport } = await import(require.resolve("@modelcontextprotocol/client"));

const argv = process.argv.slice(2);
const command = argv.shift();
let negotiate = "legacy";
if (argv[0] === "--negotiate") {
  argv.shift();
  negotiate = argv.shift();
}
if (command !== "tour" || argv.length === 0 || !["legacy", "auto"].includes(negotiate)) {
  console.error("usage: ts2_client.mjs tour [--negotiate legacy|auto] URL [URL ...]");
  process.exit(2);
}

const VISIBLE = ["search_issues", { query: "crash", state: "all" }];
const POOR = ["do_thing", { a: "x", b: 1 }];

const text = (r) =>
  (r.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

async function call(client, name, args) {
  try {
    const r = await client.callTool({ name, arguments: args });
    return { result: { isError: !!r.isError, text: text(r) } };
  } catch (e) {
    return { error: { type: e?.constructor?.name ?? "Error", message: String(e.message ?? e), code: e.code ?? null, data: e.data ?? null } };
  }
}

async function tour(url) {
  const out = { url };
  const client = new Client({ name: "rig-ts2-client", version: "2.0.0" }, { versionNegotiation: { mode: negotiate } });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport);
    out.protocolVersion = client.getNegotiatedProtocolVersion() ?? null;
    out.era = client.getProtocolEra() ?? null;
    out.serverName = client.getServerVersion()?.name ?? null;
    out.sessionId = transport.sessionId ?? null;
    out.visible = await call(client, ...VISIBLE);
    out.poor = await call(client, ...POOR);
    const tools = [];
    const pages = [];
    let cursor;
    for (;;) {
      // One page at a time (an explicit cursor walk), so each page's caching fields are seen.
      const page = await client.listTools(cursor ? { cursor } : {}, { cacheMode: "bypass" });
      tools.push(...page.tools);
      pages.push({ cacheScope: page.cacheScope ?? null, ttlMs: page.ttlMs ?? null });
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    out.tools = tools;
    out.pages = pages;
    out.poorAgain = await call(client, ...POOR);
    await client.close();
  } catch (e) {
    out.fatal = String(e?.stack ?? e);
  }
  return out;
}

const runs = [];
for (const url of argv) runs.push(await tour(url));
process.stdout.write(JSON.stringify({ client: `ts2-${negotiate}`, runs }) + "\n");
process.exit(0);
