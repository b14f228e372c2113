-- wrk script for bench/soak_serving.py: paths from a file (one a line, taken in turn) and a fixed pause
-- before each request, so that the connections together send about the target rate; prints the
-- WRKJSON line of wrk_report.lua.
--   wrk -s bench/wrk_soak.lua http://127.0.0.1:PORT -- /abs/paths.txt PAUSE_MS
local paths = {}
local next_index = 1
local pause = 0

init = function(args)
  for line in io.lines(args[1]) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  pause = tonumber(args[2] or "0")
  next_index = (math.random(#paths) % #paths) + 1
end

delay = function()
  return pause
end

request = function()
  local path = paths[next_index]
  next_index = next_index % #paths + 1
  return wrk.format("GET", path)
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "errors": {"connect": %d, "read": %d, "write": %d, ' ..
    '"status": %d, "timeout": %d}, "latency_us": {"p50": %d, "p95": %d, "p99": %d, "max": %d, "mean": %.1f}}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max, latency.mean))
end
