// An MCP client on the TypeScript SDK (@modelcontextprotocol/sdk from tests/node/node_modules)
// that runs a plan of steps and prints, as one JSON object on stdout, what it saw; the Rust tests
// (tests/stdio_*.rs) assert on it. The same plans as sdk_client.py:
//
//   node ts_client.mjs http URL PLAN             StreamableHTTPClientTransport; the session is
//                                                DELETEd (terminateSession) before closing
//   node ts_client.mjs stdio PLAN -- CMD ARGS    StdioClientTransport launching CMD
//
// PLAN is a JSON array of steps: {"op":"list"}, {"op":"call","tool":N,"args":{}}, {"op":"ping"},
// {"op":"procs"} (stdio only: the launched process's pid and its children's).
// Output: {protocolVersion, serverName, sessionId, steps, errors, closeMs, exit} where `exit` is
// how the launched process ended after the close (stdio: {code, signal}).

import { createRequire } from "node:module";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));

const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { StdioClientTransport } = await sdk("client/stdio.js");
const { McpError } = await sdk("types.js");

const usage = "usage: ts_client.mjs http URL PLAN | stdio PLAN -- CMD ARGS";
const argv = process.argv.slice(2);
const mode = argv[0];
let plan;
let transport;
if (mode === "http" && argv.length === 3) {
  plan = JSON.parse(argv[2]);
  transport = new StreamableHTTPClientTransport(new URL(argv[1]));
} else if (mode === "stdio" && argv[2] === "--" && argv.length > 3) {
  plan = JSON.parse(argv[1]);
  transport = new StdioClientTransport({ command: argv[3], args: argv.slice(4), env: process.env, stderr: "pipe" });
} else {
  console.error(usage);
  process.exit(2);
}

// Direct children of `pid`, from /proc.
function childrenOf(pid) {
  const kids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) kids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return kids;
}

const out = { steps: [], errors: [] };
const timer = setTimeout(() => {
  console.error("ts_client: overall timeout");
  process.exit(3);
}, 90_000);

const client = new Client({ name: "stdio-rig-ts-client", version: "1.0.0" }, { capabilities: {} });
client.onerror = (e) => out.errors.push(String(e).slice(0, 300));
if (mode === "stdio") {
  // Keep the wrapped server's logs off our stdout, but read them so the pipe never fills.
  transport.stderr?.on("data", () => {});
}
await client.connect(transport);
out.protocolVersion = transport.protocolVersion ?? null;
out.serverName = client.getServerVersion()?.name ?? null;
out.sessionId = transport.sessionId ?? null;

for (const step of plan) {
  if (step.op === "list") {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    out.steps.push({ op: "list", tools });
  } else if (step.op === "call") {
    try {
      const r = await client.callTool({ name: step.tool, arguments: step.args ?? {} });
      const text = (r.content ?? [])
        .filter((c) => c.type === "text")
        .map((c) => c.text)
        .join("\n");
      out.steps.push({ op: "call", ok: true, isError: !!r.isError, text, structuredContent: r.structuredContent ?? null });
    } catch (e) {
      if (e instanceof McpError) {
        out.steps.push({ op: "call", ok: false, code: e.code, message: e.message, data: e.data ?? null });
      } else {
        throw e;
      }
    }
  } else if (step.op === "ping") {
    await client.ping();
    out.steps.push({ op: "ping", ok: true });
  } else if (step.op === "procs") {
    const pid = transport.pid;
    out.steps.push({ op: "procs", pid, children: pid ? childrenOf(pid) : [] });
  } else {
    throw new Error(`unknown step ${step.op}`);
  }
}

const started = performance.now();
if (mode === "http") {
  await transport.terminateSession();
  await client.close();
} else {
  // Watch how the launched process ends once the transport closes its stdin.
  const child = transport._process;
  const exited = new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child?.exitCode ?? null, signal: child?.signalCode ?? null });
    } else {
      child.once("exit", (code, signal) => resolve({ code, signal }));
    }
  });
  await client.close();
  out.exit = await exited;
}
out.closeMs = Math.round(performance.now() - started);
clearTimeout(timer);
process.stdout.write(JSON.stringify(out) + "\n");
process.exit(0);
