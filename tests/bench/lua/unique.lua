-- Replays one request whose body needs a value never sent before (out_trade_no of /trade/pay): the marker
-- in the body becomes a per-run random prefix and a counter.
-- Usage: wrk -s unique.lua URL -- DATA.lua   (BENCH_LUA_DIR names this folder)
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

local method, path, headers, head, tail, prefix
local counter = 0

function init(args)
  local data = dofile(args[1])
  local r = data.request
  method, path, headers, prefix = r.method, r.path, r.headers, data.prefix
  local i, j = string.find(r.body, data.marker, 1, true)
  head, tail = string.sub(r.body, 1, i - 1), string.sub(r.body, j + 1)
end

function request()
  counter = counter + 1
  return wrk.format(method, path, headers, head .. prefix .. counter .. tail)
end
