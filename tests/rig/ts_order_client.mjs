// The TypeScript SDK client (tests/node/node_modules) against tests/rig/ts_order_server.mjs, one
// fresh session per round: connect (the SDK opens the GET stream right after
// notifications/initialized without waiting for it), then at once call both tools concurrently,
// ask_sampling and ask_elicitation, whose server requests travel on that GET stream; answer them;
// end the session with DELETE. Prints one JSON object: {rounds, played, answered (round trips,
// two a round), failures: [{round, tool, outcome, getFirst, text}]}.
//
//   node ts_order_client.mjs URL ROUNDS [TIMEOUT_MS [first-failure]]
//       TIMEOUT_MS is how long the server waits for each answer (default 5000); `first-failure`
//       stops after the first round in which a server request went unanswered

import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "node", "package.json"));
const sdk = (p) => import(require.resolve(`@modelcontextprotocol/sdk/${p}`));

const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const types = await sdk("types.js");

const [url, roundsArg, timeoutArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const timeoutMs = Number(timeoutArg ?? 5000);
const stopAtFailure = process.argv[5] === "first-failure";
if (!url || !(rounds > 0)) {
  console.error("usage: ts_order_client.mjs URL ROUNDS [TIMEOUT_MS]");
  process.exit(2);
}

const out = { rounds, played: 0, answered: 0, failures: [] };
try {
  for (let round = 0; round < rounds; round++) {
    const client = new Client(
      { name: "rig-ts-order-client", version: "1.0.0" },
      { capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    client.setRequestHandler(types.CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "sampled" },
      model: "rig-model",
      stopReason: "endTurn",
    }));
    client.setRequestHandler(types.ElicitRequestSchema, async () => ({
      action: "accept",
      content: { answer: "elicited" },
    }));
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const call = async (tool) => {
      const r = await client.callTool({ name: tool, arguments: { timeoutMs } });
      const text = (r.content ?? []).map((c) => c.text ?? "").join("");
      let seen;
      try {
        seen = JSON.parse(text);
      } catch {
        seen = { outcome: "unreadable" };
      }
      if (!r.isError && seen.outcome === "answered") {
        out.answered += 1;
      } else {
        out.failures.push({ round, tool, outcome: seen.outcome ?? null, getFirst: seen.getFirst ?? null, text });
      }
    };
    await Promise.all([call("ask_sampling"), call("ask_elicitation")]);
    out.played += 1;
    await transport.terminateSession();
    await client.close();
    if (stopAtFailure && out.failures.length > 0) break;
  }
} catch (e) {
  out.fatal = String(e?.stack ?? e);
}
process.stdout.write(JSON.stringify(out) + "\n");
process.exit(out.fatal ? 1 : 0);
