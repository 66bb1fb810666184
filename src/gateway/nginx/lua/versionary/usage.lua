-- Usage counted in shared memory and sent to the control plane in batches (docs/gateway.md#usage):
-- per request one `incr` on `versionary_usage`, keyed client, version, method, operation, minute,
-- status and the deprecated elements used; each second one worker takes the counters into a batch
-- and posts it. A batch stays in `versionary_state` until the control plane acknowledges it, and is
-- sent again (same instance and sequence number: the control plane records it once) until then.
-- Written by `versionary nginx`.
local cjson = require("cjson.safe")
local control = require("versionary.control")

local ngx = ngx
local find, sub, floor, concat = string.find, string.sub, math.floor, table.concat

local _M = {}
local counters = ngx.shared.versionary_usage
local state = ngx.shared.versionary_state

-- A tab cannot be in a key's parts: a client id is the control plane's, an operation a template,
-- and the canonical path refuses encoded controls.
local SEP = "\t"
local fields = { "client", "version", "method", "operation", "minute", "status", "deprecated" }

-- The counters' names of the current minute by operation, client and status, made once per minute
-- and worker: a client calls the same operation again and again. Forgotten past 10000 names.
local names, name_count = {}, 0

local function name_of(client, operation, minute, status, deprecated)
  local by_client = names[operation]
  local known = by_client and by_client[client]
  local key = known and known.minute == minute and known[status]
  if key and known.deprecated == deprecated then return key end
  key = client .. SEP .. operation .. SEP .. minute .. SEP .. status .. SEP .. (deprecated or "")
  if name_count >= 10000 then names, name_count = {}, 0 end
  by_client = names[operation]
  if not by_client then
    by_client = {}
    names[operation] = by_client
  end
  known = by_client[client]
  if not known or known.minute ~= minute or known.deprecated ~= deprecated then
    known = { minute = minute, deprecated = deprecated }
    by_client[client] = known
  end
  known[status], name_count = key, name_count + 1
  return key
end

--- Count one call of a client; `operation` is version, method and operation joined by tabs.
function _M.count(client, operation, minute, status, deprecated)
  local key = name_of(client, operation, minute, status, deprecated)
  local _, err, forcible = counters:incr(key, 1, 0)
  if err or forcible then
    -- Said once a minute: a full dict drops the oldest counters (raise gateway.nginx.usageMemory).
    if state:add("logged:usage-full", true, 60) then
      ngx.log(ngx.ERR, "versionary: the usage counters' shared memory is full (", err or "evicted",
        "): raise gateway.nginx.usageMemory")
    end
  end
end

local function entry_of(key, calls)
  local entry, at = { calls = calls }, 1
  for i = 1, #fields do
    local tab = find(key, SEP, at, true)
    entry[fields[i]] = sub(key, at, (tab or 0) - 1)
    at = tab and tab + 1 or #key + 1
  end
  entry.minute, entry.status = tonumber(entry.minute), tonumber(entry.status)
  return entry
end

-- Take every counter's calls (each `incr` by its negative keeps calls counted meanwhile); zero
-- counters of minutes long past are dropped.
local function take(now_minute)
  local keys, entries = counters:get_keys(0), {}
  for i = 1, #keys do
    local key = keys[i]
    local calls = counters:get(key)
    if calls and calls > 0 then
      counters:incr(key, -calls)
      entries[#entries + 1] = entry_of(key, calls)
    elseif calls == 0 and entry_of(key, 0).minute < now_minute - 2 then
      counters:delete(key)
    end
  end
  return entries
end

-- Calls taken but not stored as a batch go back into their counters.
local function put_back(entries)
  for _, e in ipairs(entries) do
    local parts = {}
    for i = 1, #fields do parts[i] = e[fields[i]] end
    counters:incr(concat(parts, SEP), e.calls, 0)
  end
end

-- One step under the lock: send the batch waiting for its acknowledgement, or make one of the
-- counters and send it. Returns whether a batch was acknowledged (there may be more to send).
local function step(config, now_minute)
  local body = state:get("usage:batch")
  if not body then
    local entries = take(now_minute)
    if not entries[1] then return false end
    local seq = state:incr("usage:seq", 1, 0)
    body = cjson.encode({ instance = state:get("usage:instance"), seq = seq, entries = entries })
    -- Never evicting the table: a batch that does not fit leaves the calls in their counters.
    local ok, err = state:safe_set("usage:batch", body)
    if not ok then
      put_back(entries)
      ngx.log(ngx.ERR, "versionary: a usage batch does not fit in versionary_state (", err, "): kept in the counters")
      return false
    end
  end
  local status, answer = control.post(config, config.usage_path, body)
  if status == 200 then
    state:delete("usage:batch")
    return true
  end
  control.unreachable(config, status and ("status " .. status .. ": " .. answer) or answer)
  return false
end

--- Send what was counted, one worker at a time. `final`: the worker is exiting (reload, graceful
--- stop): wait for the lock, and send until nothing is left or the control plane does not answer.
function _M.flush(config, now_ms, final)
  local waited = 0
  while not state:add("usage:lock", ngx.worker.pid(), 30) do
    if not final or waited >= 100 then return end
    ngx.sleep(0.05)
    waited = waited + 1
  end
  local ok, err = pcall(function()
    local minute = floor(now_ms / 60000)
    for _ = 1, final and 20 or 3 do
      if not step(config, minute) then break end
    end
  end)
  state:delete("usage:lock")
  if not ok then ngx.log(ngx.ERR, "versionary: sending usage failed: ", err) end
end

--- init_worker: this nginx's instance id (kept across reloads, as the counters are), then a
--- flush every `usage_interval` seconds (1); the exiting worker's last run (premature) sends what is left.
function _M.start(config, now_ms)
  local id = ngx.worker.pid() .. "-" .. floor(ngx.now() * 1000) .. "-" .. math.random(1, 1e9)
  state:add("usage:instance", id)
  local ok, err = ngx.timer.every(config.usage_interval, function(premature)
    _M.flush(config, now_ms(), premature)
  end)
  if not ok then ngx.log(ngx.ERR, "versionary: the usage timer did not start: ", err) end
end

--- Calls still in the counters (exit_worker: what a graceful stop would not have sent).
function _M.left()
  local keys, calls = counters:get_keys(0), 0
  for i = 1, #keys do calls = calls + (counters:get(keys[i]) or 0) end
  return calls, state:get("usage:batch") ~= nil
end

return _M
