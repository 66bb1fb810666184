-- Rate-limit counters in the Redis that `versionary gateway` instances share (VERSIONARY_REDIS_URL),
-- so that several nginx hosts, and Node gateways beside them, give a client its limit once
-- (docs/gateway.md#several-nginx-hosts-share-rate-limits). The keys, the script and the window are
-- the Node store's (src/storage/redis/redis-rate-limit-store.ts): `<prefix>rate-limit:<counter key>`,
-- a window opened by the first call (INCR, then PEXPIRE), its reset the key's PTTL. Redis failing,
-- the caller counts in shared memory, per host; the error log says so once, and once when it is back.
-- Written by `versionary nginx`: do not edit, render again.
local redis = require("resty.redis")

local ngx = ngx
local find, sub, match, gsub, format = string.find, string.sub, string.match, string.gsub, string.format
local ceil, max, tonumber, tostring, concat = math.ceil, math.max, tonumber, tostring, table.concat

local state = ngx.shared.versionary_state

local _M = {}

-- The Node store's script, byte for byte (its template literal opens with a newline, which a long
-- string drops): the same SHA in Redis's script cache, the same window.
local script = "\n" .. [[
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
]]
local script_sha

-- As the Node store's circuit breaker (fallback-store.ts): three failures in a row open it for 2 s,
-- in which every worker counts locally without calling Redis; then one call probes it again.
local failure_threshold, open_seconds = 3, 2

local settings
-- Failures in a row, in this worker.
local consecutive = 0

--- The rendered settings (init_by_lua, in the master): host, port, db, username, prefix,
--- timeout_ms, ssl, and the password read here from the private folder, never from the config.
function _M.init(options)
  if not options then return end
  settings = options
  if options.password_file then
    local file, err = io.open(options.password_file, "rb")
    if not file then
      error("versionary: cannot read the Redis password (" .. tostring(err) .. "): render again, and let nginx's "
        .. "master read it", 0)
    end
    settings.password = match(file:read("*a") or "", "^(.-)\n?$")
    file:close()
  end
  settings.pool = "versionary-redis:" .. options.host .. ":" .. options.port .. ":" .. (options.db or 0)
  settings.connect = { pool = settings.pool, pool_size = options.pool_size or 32, backlog = 64,
    ssl = options.ssl or nil, ssl_verify = options.ssl or nil, server_name = options.ssl and options.host or nil }
  script_sha = gsub(ngx.sha1_bin(script), ".", function(c) return format("%02x", c:byte()) end)
end

function _M.enabled()
  return settings ~= nil
end

local function failed(err)
  consecutive = consecutive + 1
  if consecutive < failure_threshold then return end
  state:set("redis:open", true, open_seconds)
  -- Once per outage across workers: the first to open the circuit says it.
  if state:add("redis:down", true) then
    ngx.log(ngx.ERR, "versionary: Redis at ", settings.host, ":", settings.port, " is unavailable (", err,
      "): counting rate limits in this nginx's shared memory, per host, until it answers again")
  end
end

local function succeeded()
  consecutive = 0
  if state:get("redis:down") and state:delete("redis:down") then
    ngx.log(ngx.NOTICE, "versionary: Redis at ", settings.host, ":", settings.port,
      " answers again: rate limits are counted in Redis, shared by every host")
  end
end

-- A new connection authenticates and picks its database; a pooled one already has.
local function prepare(red)
  if red:get_reused_times() > 0 then return true end
  if settings.password then
    local ok, err
    if settings.username then ok, err = red:auth(settings.username, settings.password)
    else ok, err = red:auth(settings.password) end
    if not ok then return nil, "AUTH: " .. tostring(err) end
  end
  if settings.db and settings.db ~= 0 then
    local ok, err = red:select(settings.db)
    if not ok then return nil, "SELECT: " .. tostring(err) end
  end
  return true
end

local function call(key, window_ms)
  local red = redis:new()
  local timeout = settings.timeout_ms
  red:set_timeouts(timeout, timeout, timeout)
  local ok, err = red:connect(settings.host, settings.port, settings.connect)
  if not ok then return nil, err end
  ok, err = prepare(red)
  if not ok then
    red:close()
    return nil, err
  end
  local name = settings.prefix .. key
  local res
  res, err = red:evalsha(script_sha, 1, name, window_ms)
  if not res and err and find(err, "NOSCRIPT", 1, true) then res, err = red:eval(script, 1, name, window_ms) end
  if type(res) ~= "table" or not res[2] then
    red:close()
    return nil, err or "unexpected reply from the rate-limit script"
  end
  red:set_keepalive(60000, settings.connect.pool_size)
  return tonumber(res[1]), tonumber(res[2])
end

--- One hit on the shared window of `key` (core's rateCounterKey, or an address's `ip:` key): the
--- count so far and whole seconds to its reset; nil when there is no Redis, or it fails (the caller
--- counts locally).
function _M.hit(key, window_ms)
  if not settings or state:get("redis:open") then return nil end
  local count, ttl = call(key, window_ms)
  if not count then
    failed(ttl)
    return nil
  end
  succeeded()
  return count, max(0, ceil(ttl / 1000))
end

-- The address keys worked out lately (IPv6 needs some work; IPv4 is a concatenation).
local memo, memo_size = {}, 0

-- The eight hextets of an IPv6 address, without leading zeros; nil when it is not one.
local function hextets(ip)
  local v4 = match(ip, "(%d+%.%d+%.%d+%.%d+)$")
  if v4 then
    local a, b, c, d = match(v4, "(%d+)%.(%d+)%.(%d+)%.(%d+)")
    ip = sub(ip, 1, #ip - #v4) .. format("%x:%x", a * 256 + b, c * 256 + d)
  end
  local head, tail = match(ip, "^(.-)::(.*)$")
  local function split(s, into)
    if s == "" then return into end
    for part in s:gmatch("[^:]+") do into[#into + 1] = part end
    return into
  end
  local left = split(head or ip, {})
  local right = head and split(tail, {}) or {}
  local all = {}
  for _, h in ipairs(left) do all[#all + 1] = h end
  if head then for _ = 1, 8 - #left - #right do all[#all + 1] = "0" end end
  for _, h in ipairs(right) do all[#all + 1] = h end
  if #all ~= 8 then return nil end
  for i, h in ipairs(all) do
    local n = tonumber(h, 16)
    if not n then return nil end
    all[i] = format("%x", n)
  end
  return all
end

--- The counter key of a client address, as the Node gateway's addressKey: `ip:<IPv4>`, or for IPv6
--- the /64 it belongs to (`ip:2001:db8:0:1::/64`), an IPv4-mapped address as its IPv4 address.
function _M.address_key(ip)
  if not find(ip, ":", 1, true) then return "ip:" .. ip end
  local key = memo[ip]
  if key then return key end
  local mapped = match(ip, "^::[fF][fF][fF][fF]:(%d+%.%d+%.%d+%.%d+)$")
  if mapped then
    key = "ip:" .. mapped
  else
    local all = hextets(gsub(ip, "%%.*$", ""))
    key = all and ("ip:" .. concat(all, ":", 1, 4) .. "::/64") or ("ip:" .. ip)
  end
  if memo_size >= 10000 then memo, memo_size = {}, 0 end
  memo[ip], memo_size = key, memo_size + 1
  return key
end

return _M
