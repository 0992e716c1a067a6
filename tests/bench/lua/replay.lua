-- Replays requests the harness built (and signed) beforehand, round robin. Payout requests must carry a
-- timestamp close to the wall clock, so they come in sets signed for each second, picked by os.time().
-- Usage: wrk -s replay.lua URL -- DATA.lua   (BENCH_LUA_DIR names this folder)
dofile(os.getenv("BENCH_LUA_DIR") .. "/report.lua")

local sets, per_second, counter = {}, false, 0
local first, last

local function build(list)
  local built = {}
  for i, r in ipairs(list) do
    -- Formatted once here, so that the load generator spends no time per request on it.
    built[i] = wrk.format(r.method, r.path, r.headers, r.body)
  end
  return built
end

function init(args)
  local data = dofile(args[1])
  per_second = data.per_second
  for key, list in pairs(data.sets) do
    sets[key] = build(list)
    if first == nil or key < first then first = key end
    if last == nil or key > last then last = key end
  end
end

function request()
  counter = counter + 1
  local key = first
  if per_second then
    -- Outside the signed window the nearest set is used; the service then refuses it, and wrk counts that.
    key = math.min(math.max(os.time(), first), last)
  end
  local list = sets[key]
  return list[(counter % #list) + 1]
end
