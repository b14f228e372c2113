-- wrk script: each request takes the next path of a file (one path a line), so a lookup benchmark asks
-- for many different companies; prints the same WRKJSON line as wrk_report.lua. An optional second
-- argument is a pause in milliseconds before each request (bench/soak_serving.py holds a rate with it).
--   wrk -s bench/wrk_paths.lua http://127.0.0.1:PORT -- /abs/paths.txt [PAUSE_MS]
local paths = {}
local next_index = 1
local pause = 0

init = function(args)
  for line in io.lines(args[1]) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  pause = tonumber(args[2] or "0")
  -- threads start at different places in the list
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
