-- wrk script for scripts/bench-proxy.sh: POSTs stateless JSON-RPC requests to an MCP
-- Streamable HTTP endpoint, each with an id unique across threads, and prints a JSON summary.
--
--   wrk -s benches/proxy/mcp.lua URL -- METHOD [TOOL] [SESSION_ID] [PACE_MS]
--
-- METHOD is the JSON-RPC method (tools/list, tools/call, bench/tools_raw, ...); TOOL names the
-- tool for tools/call; SESSION_ID, when given and not "-", is sent as Mcp-Session-Id (peers
-- that need a session get one opened beforehand by the driver). PACE_MS, when given and not
-- 0, makes each connection wait that long between an answer and its next request, so the
-- load stays light and latencies show service time rather than queueing.
-- The summary line starts with "BENCH_JSON " so the driver can pick it out of wrk's output;
-- latencies are in microseconds.

local threads = {}
local counter = 1

function setup(thread)
   thread:set("tid", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

local method, tool, session, pace
local seq = 0
local prefix, suffix
local headers = {}

function init(args)
   method = args[1] or "tools/list"
   tool = args[2]
   session = args[3]
   pace = tonumber(args[4] or "0") or 0
   if pace > 0 then
      -- Defined only when pacing: wrk checks for it after init, and a delay() that returns 0
      -- still costs a timer per request.
      delay = function()
         return pace
      end
   end
   headers["Content-Type"] = "application/json"
   headers["Accept"] = "application/json, text/event-stream"
   headers["MCP-Protocol-Version"] = "2025-06-18"
   if session and session ~= "-" and session ~= "" then
      headers["Mcp-Session-Id"] = session
   end
   local params
   if method == "tools/call" then
      params = string.format('{"name":"%s","arguments":{"query":"load test"}}', tool or "search_issues")
   else
      params = "{}"
   end
   -- ids look like "t<thread>-<n>": unique per request across all threads.
   prefix = string.format('{"jsonrpc":"2.0","id":"t%d-', tid)
   suffix = string.format('","method":"%s","params":%s}', method, params)
end

function request()
   seq = seq + 1
   return wrk.format("POST", nil, headers, prefix .. seq .. suffix)
end

function done(summary, latency, requests)
   local seconds = summary.duration / 1e6
   local e = summary.errors
   local out = string.format(
      '{"requests":%d,"seconds":%.3f,"rps":%.1f,"bytes":%d,'
         .. '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f,'
         .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}',
      summary.requests, seconds, summary.requests / seconds, summary.bytes,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
      e.connect, e.read, e.write, e.status, e.timeout)
   io.write("BENCH_JSON " .. out .. "\n")
end
