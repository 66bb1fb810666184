-- Versionary's data plane in nginx (lua-nginx-module): each API request judged from the decision
-- table the control plane pushes into shared memory (docs/gateway.md#nginx-as-the-data-plane).
-- `access` runs the rules in the gateway's order; `header_filter` adds the headers they decided.
-- Written by `versionary nginx`: do not edit, render again.
local cjson = require("cjson.safe")
local json_body = require("versionary.json").string_body
local rules = require("versionary.rules")
local target = require("versionary.target")
local control = require("versionary.control")
local redis_rate = require("versionary.redis_rate")
local usage = require("versionary.usage")
local request_id = require("versionary.request_id")

local ngx, ngx_var, ngx_now = ngx, ngx.var, ngx.now
local new_table = require("table.new")
local find, sub, match, byte = string.find, string.sub, string.match, string.byte
local floor, ceil, max, tostring, pairs, type = math.floor, math.ceil, math.max, tostring, pairs, type
local concat = table.concat

local state = ngx.shared.versionary_state
local counts = ngx.shared.versionary_counts

local _M = {}
local config
-- This worker's decoded table, the stamp it was decoded at, and the control plane's clock offset.
local current, current_stamp, offset = nil, nil, 0
-- A control plane whose clock stands still (a test's) is judged at its very instant.
local fixed_now

--- The settings `versionary nginx` rendered (init_by_lua, in the master: every worker inherits them).
function _M.init(settings)
  config = settings
  local secret = control.read_secret(settings.secret_file)
  config.secret = secret
  config.secret_line = "X-Versionary-Secret: " .. secret .. "\r\n"
  redis_rate.init(settings.redis)
end

-- The rules' clock: the control plane's (a fixed one as it is), in ms.
local function clock_now()
  return fixed_now or (ngx_now() * 1000 + offset)
end

--- init_worker_by_lua: the usage sent to the control plane each second.
function _M.init_worker()
  usage.start(config, function()
    -- The clock of the table this worker read last (none yet: nginx's).
    return clock_now()
  end)
end

--- exit_worker_by_lua: the last flush (the timer's premature run) has sent what the worker counted;
--- what is left stays in shared memory for the next workers on a reload, and is said on a stop.
function _M.exit_worker()
  local calls, batch = usage.left()
  if calls > 0 or batch then
    ngx.log(ngx.WARN, "versionary: ", calls, " call(s)", batch and " and a batch" or "",
      " not yet acknowledged by the control plane at worker exit (kept for the next workers on a reload)")
  end
end

local function store_table(json, control_now, fixed)
  local decoded, err = rules.decode(json)
  if not decoded then return nil, err end
  local skew = control_now and (control_now - ngx_now() * 1000) or 0
  -- The control plane's clock is the rules' clock; a skew under a second is the wire's, not the clock's.
  if skew > -1000 and skew < 1000 then skew = 0 end
  local ok, serr = state:set("table", json)
  if not ok then return nil, "shared memory: " .. tostring(serr) end
  state:set("offset", floor(skew))
  state:set("fixed_now", fixed and control_now or nil)
  state:set("generation", decoded.generation)
  -- What the control plane compares with the table it pushed: a table it did not push does not stay.
  state:set("digest", control.sha256_hex(json))
  -- The stamp every request reads; `table_stamp` tells a new table from a key flush, which bumps
  -- the stamp too. Bumped first: a worker that sees the new stamp sees the new table.
  state:incr("table_stamp", 1, 0)
  state:incr("stamp", 1, 0)
  return decoded.generation
end

-- No table in shared memory yet (nginx just started): ask the control plane for it, one worker at a time.
local function pull()
  if not state:add("pulling", true, 5) then
    for _ = 1, 20 do
      ngx.sleep(0.05)
      if state:get("table_stamp") then return end
    end
    return
  end
  local status, body, control_now = control.get(config, config.table_path, "")
  if status == 200 then
    local ok, err = store_table(body, control_now)
    if not ok then ngx.log(ngx.ERR, "versionary: the control plane's table is refused: ", err) end
  else
    control.unreachable(config, status and ("status " .. status) or body)
  end
  state:delete("pulling")
end

-- The table in force: decoded once per push in each worker, not per request. The stamp also
-- moves on a key flush: this worker's copy of the key cache is dropped before the request reads it.
local current_table_stamp
local function table_now()
  local stamp = state:get("stamp")
  if stamp == current_stamp and current then return current end
  control.forget_keys()
  local table_stamp = state:get("table_stamp")
  -- No table yet (a key flush alone moves the stamp too).
  if not table_stamp then
    pull()
    table_stamp = state:get("table_stamp")
    if not table_stamp then return nil end
    stamp = state:get("stamp")
  end
  if current and table_stamp == current_table_stamp then
    current_stamp = stamp
    return current
  end
  local decoded, err = rules.decode(state:get("table"))
  if not decoded then
    ngx.log(ngx.ERR, "versionary: the table in shared memory cannot be read: ", err)
    return current
  end
  current, current_stamp, current_table_stamp, offset = decoded, stamp, table_stamp, state:get("offset") or 0
  fixed_now = state:get("fixed_now")
  return current
end

-- A problem text's `{name}` placeholders (ASCII letters), split once per text: literal, name,
-- literal, ..., literal; false for a text without one. Forgotten all at once past 1000 texts.
local templates, template_count = {}, 0

local function is_letter(b)
  return b and ((b >= 65 and b <= 90) or (b >= 97 and b <= 122))
end

local function template_of(text)
  local parts = templates[text]
  if parts ~= nil then return parts end
  local list, from, at = nil, 1, 1
  while true do
    local open = find(text, "{", at, true)
    if not open then break end
    local close = open + 1
    while is_letter(byte(text, close)) do close = close + 1 end
    if close > open + 1 and byte(text, close) == 125 then
      list = list or {}
      list[#list + 1] = sub(text, from, open - 1)
      list[#list + 1] = sub(text, open + 1, close - 1)
      from = close + 1
      at = close + 1
    else
      at = open + 1
    end
  end
  if list then list[#list + 1] = sub(text, from) end
  if template_count >= 1000 then templates, template_count = {}, 0 end
  templates[text], template_count = list or false, template_count + 1
  return list or false
end

-- `{name}` in a problem's text replaced by request values (JSON-escaped); a name without a value stays.
local function filled(text, values)
  if not values then return text end
  local parts = template_of(text)
  if not parts then return text end
  local out = {}
  for i = 1, #parts - 1, 2 do
    local name = parts[i + 1]
    local value = values[name]
    out[i] = parts[i]
    out[i + 1] = value == nil and ("{" .. name .. "}") or json_body(tostring(value))
  end
  out[#parts] = parts[#parts]
  return concat(out)
end

-- A table of headers as an array of names and values, built once per table (the table's rows are
-- read, never changed): walked with an index, which LuaJIT compiles, where `pairs` is not.
local as_pairs = setmetatable({}, { __mode = "k" })
local function pairs_of(headers)
  local list = as_pairs[headers]
  if list then return list end
  list = {}
  for name, value in pairs(headers) do
    list[#list + 1] = name
    list[#list + 1] = value
  end
  as_pairs[headers] = list
  return list
end

-- Set each header of a table (as `pairs_of` lists it).
local function set_headers(out, headers)
  local list = pairs_of(headers)
  for i = 1, #list, 2 do out[list[i]] = list[i + 1] end
end

-- Answer a problem of the table: its status, headers and body with `instance` and the request id.
local function send_problem(t, key, headers, values, own)
  local ctx = ngx.ctx
  -- `own`: a problem the control plane worded for this credential (its 401 or 403).
  local problem = own or t.problems[key] or t.problems["target-not-a-path"]
  if own and not own.prefix then rules.index_problem(own) end
  local out = ngx.header
  if ctx.list then set_headers(out, ctx.list) end
  if headers then set_headers(out, headers) end
  local placeholders = problem.placeholders and values
  if placeholders then
    local list = pairs_of(problem.headers)
    for i = 1, #list, 2 do out[list[i]] = filled(list[i + 1], values) end
  else
    set_headers(out, problem.headers)
  end
  if values and values.retry then out["retry-after"] = values.retry end
  if ctx.vary then out["vary"] = "Accept" end
  out["content-type"] = "application/problem+json; charset=utf-8"
  out["cache-control"] = "no-store"
  out["x-content-type-options"] = "nosniff"
  local body = placeholders and filled(problem.prefix, values) or problem.prefix
  local instance = ctx.instance
  if instance and #instance <= 2000 then body = body .. ',"instance":"' .. json_body(instance) .. '"' end
  -- The id X-Request-Id carries: the API location's own (set in `access`), else nginx's `$request_id`.
  body = body .. ',"requestId":"' .. ngx_var.versionary_request_id .. '"}'
  out["content-length"] = #body
  ctx.answered = true
  ngx.status = problem.status
  ngx.print(body)
  return ngx.exit(ngx.HTTP_OK)
end

-- Each counter's name in its current window, made once per window and worker (not a string per request).
local window_names, window_of, window_count = {}, {}, 0

local function window_name(key, index)
  if window_of[key] == index then return window_names[key] end
  if window_count >= 10000 then window_names, window_of, window_count = {}, {}, 0 end
  local name = key .. ":" .. index
  window_names[key], window_of[key], window_count = name, index, window_count + 1
  return name
end

-- One hit on a fixed window of shared-memory counters: the count so far and seconds to its reset.
local function hit(key, policy, now)
  local window_ms = policy.windowSeconds * 1000
  local index = floor(now / window_ms)
  local count = counts:incr(window_name(key, index), 1, 0, policy.windowSeconds + 1)
  return count, max(0, ceil(((index + 1) * window_ms - now) / 1000))
end

-- Count a call against a client's (or an address's) policy: false once it has answered the 429.
local function limited(t, ctx, key, policy, now)
  if not policy then return false end
  -- Shared by every host in Redis when the control plane has one; else, or Redis failing, this host's.
  local count, reset = redis_rate.hit(key, policy.windowSeconds * 1000)
  if not count then count, reset = hit(key, policy, now) end
  -- A full or failing counter serves the request unlimited, as the gateway's failing store does.
  if not count then return false end
  local remaining = max(0, policy.max - count)
  if count > policy.max then
    send_problem(t, "rate-limited:" .. policy.name, nil, { seconds = reset })
    return true
  end
  ctx.policy_field = policy.policyField
  ctx.rate = policy.rate_head .. ";r=" .. remaining .. ";t=" .. reset
  return false
end

local function version_list(t, now)
  return rules.segment_at(t.listHeaders, now).headers
end

-- The version the request asks for, from its path or Accept: version, source, or answers the problem.
local function negotiate(t, ctx, path_version)
  local accept = ngx_var.http_accept
  local info = accept and target.accept(accept, t.vendor_prefix)
  if info then
    if info.malformed[1] then
      local ranges = table.concat(info.malformed, ", ")
      if #ranges > 200 then ranges = sub(ranges, 1, 200) .. "…" end
      return send_problem(t, "version-accept-unreadable", nil, { ranges = ranges })
    end
    local named = info.versions
    if named[2] then
      local list = {}
      for i, n in ipairs(named) do list[i] = "v" .. n end
      return send_problem(t, "version-accept-several", nil, { versions = table.concat(list, ", ") })
    end
    if path_version and named[1] and named[1] ~= tonumber(path_version) then
      return send_problem(t, "version-conflict", nil, { path = "v" .. path_version, accept = "v" .. named[1] })
    end
    if not info.json then return send_problem(t, "not-acceptable") end
  end
  if path_version then return "v" .. path_version, "path" end
  ctx.vary = true
  if info and info.versions[1] then return "v" .. info.versions[1], "accept" end
  return send_problem(t, "version-missing")
end

-- The request target as the client sent it: `$request_uri` drops an absolute-form target's scheme
-- and authority (`ftp://x/api/...` would read as `/api/...`).
local function request_target()
  local line = ngx_var.request or ""
  local space = find(line, " ", 1, true)
  if not space or space == 1 then return ngx_var.request_uri end
  local n = #line
  -- `METHOD target HTTP/1.1`: the target is what lies between the first space and ` HTTP/d.d`.
  if n - space >= 10 and sub(line, n - 8, n - 3) == " HTTP/" and byte(line, n - 1) == 46 then
    local major, minor = byte(line, n - 2), byte(line, n)
    if major >= 48 and major <= 57 and minor >= 48 and minor <= 57 then return sub(line, space + 1, n - 9) end
  end
  local rest = sub(line, space + 1)
  if rest ~= "" and not find(rest, " ", 1, true) then return rest end
  return ngx_var.request_uri
end

-- OPTIONS: 204 with `Allow`; another method the route does not declare: the table's 405. Neither
-- is forwarded, nor a call of the version (no usage line), as the gateway answers them.
local function answer_method(t, method, allow)
  ngx.ctx.uncounted = true
  if method ~= "OPTIONS" then return send_problem(t, "method-not-allowed", nil, { method = method, allow = allow }) end
  local out, ctx = ngx.header, ngx.ctx
  if ctx.list then set_headers(out, ctx.list) end
  if ctx.vary then out["vary"] = "Accept" end
  out["allow"] = allow
  ctx.answered = true
  return ngx.exit(ngx.HTTP_NO_CONTENT)
end

-- A path no document declares (the gateway's 404, never forwarded), with the version's headers; no
-- operation was called, so no usage line. The path is echoed as core's `echo` does: 200 characters at most.
local function not_documented(t, version, headers)
  ngx.ctx.uncounted = true
  local path = ngx.ctx.instance
  if #path > 200 then path = sub(path, 1, 200) .. "…" end
  return send_problem(t, "not-documented", headers, { version = version, path = path })
end

-- The digits of `v<digits>` (a path's version), or nil; no pattern per request.
local function read_version_digits(segment)
  local n = #segment
  if n < 2 or byte(segment, 1) ~= 118 then return nil end
  for i = 2, n do
    local b = byte(segment, i)
    if b < 48 or b > 57 then return nil end
  end
  return sub(segment, 2)
end

-- Each first segment's answer, read once per worker (false: not a version), forgotten past 1000:
-- the byte loop leaves LuaJIT's root trace.
local digits_of, digits_count = {}, 0
local function version_digits(segment)
  local digits = digits_of[segment]
  if digits ~= nil then return digits or nil end
  digits = read_version_digits(segment)
  if digits_count >= 1000 then digits_of, digits_count = {}, 0 end
  digits_of[segment], digits_count = digits or false, digits_count + 1
  return digits
end

local reserved = { versions = true, deprecations = true, ["openapi.json"] = true }

-- A route's usage key by the method called (HEAD counts apart from GET), made once per table.
local function usage_of(route, version, method)
  local keys = route.usage_keys
  if not keys then
    keys = {}
    route.usage_keys = keys
  end
  local key = keys[method]
  if not key then
    key = version .. "\t" .. method .. "\t" .. route.template
    keys[method] = key
  end
  return key
end

-- The credential's principal, or answers: 400 for a repeated X-API-Key, 401, 403, 429, 503.
local function identify(t, ctx, now, unsafe, pending)
  local authorization, api_key = ngx_var.http_authorization, ngx_var.http_x_api_key
  if not authorization and not api_key then
    if limited(t, ctx, redis_rate.address_key(ngx_var.remote_addr), t.base_policy, now) then return end
    if pending then return send_problem(t, pending.problem, pending.headers) end
    return send_problem(t, "credentials-missing")
  end
  if api_key then
    local all = ngx.req.get_headers(0)["x-api-key"]
    if type(all) == "table" then return send_problem(t, "credentials-repeated", nil, { count = #all }) end
  end
  local role = unsafe and "write" or "read"
  local token = control.token_of(authorization, api_key)
  local cache_key, lines
  if token then
    local credential = control.credential_of(token)
    cache_key, lines = credential[role], credential.lines
  else
    -- Unreadable: the control plane words the 401; the cache keys it by the headers as sent.
    lines = (authorization and ("Authorization: " .. authorization .. "\r\n") or "")
      .. (api_key and ("X-API-Key: " .. api_key .. "\r\n") or "")
    cache_key = role .. control.digest(lines)
  end
  local entry = control.check(config, cache_key, lines, role, unsafe)
  if not entry then return send_problem(t, "credentials-unavailable") end
  local client = entry.client
  if not client then
    if limited(t, ctx, redis_rate.address_key(ngx_var.remote_addr), t.base_policy, now) then return end
    if pending then return send_problem(t, pending.problem, pending.headers) end
    return send_problem(t, nil, nil, nil, entry.problem)
  end
  -- A refusal from here on (429, 403) is the client's call: its usage names it.
  ctx.client = client
  -- The policy of the entry's roles, worked out once per decoded table (the entry is this worker's,
  -- decoded once); the table's stamp, not the table, is kept on it, so no old table stays alive.
  local policy = entry.policy
  if entry.policy_stamp ~= current_table_stamp then
    policy = rules.policy_of(t, entry.roles)
    entry.policy_stamp, entry.policy = current_table_stamp, policy
  end
  if policy and limited(t, ctx, rules.counter_key(client, policy), policy, now) then return end
  -- A principal without the role the method needs: the control plane's 403.
  if entry.problem then
    return send_problem(t, nil, nil, nil, entry.problem)
  end
  return client
end

--- A problem core rendered whole into the configuration (no table to read it from): its status,
--- body and one more header.
local function send_rendered(status, body, name, value)
  ngx.status = status
  ngx.header["content-type"] = "application/problem+json; charset=utf-8"
  ngx.header[name] = value
  ngx.print(body)
  return ngx.exit(ngx.HTTP_OK)
end

--- access_by_lua: judge the request; refuse it with the table's problem, or let it go upstream.
function _M.access()
  local t = table_now()
  if not t then return send_rendered(503, config.no_table, "retry-after", "5") end
  ngx_var.versionary_request_id = request_id.next()
  -- The request's state, sized for what `access` writes (about a dozen fields): no rehash as it fills.
  local ctx = new_table(0, 16)
  ngx.ctx = ctx
  local now = clock_now()
  local raw = request_target()
  -- `$request_uri` is the target as sent when the target is a path without spaces: one read less.
  local uri = (byte(raw, 1) == 47 and not find(raw, " ", 1, true)) and raw or ngx_var.request_uri
  -- Answered as Node's parser answers it, with no instance: the bytes are not the client's to echo.
  if target.unreadable(raw) then return send_problem(t, "target-unreadable") end
  local q = find(uri, "?", 1, true)
  ctx.instance = q and sub(uri, 1, q - 1) or uri
  local path, query = target.canonical(raw)
  if not path then return send_problem(t, "target-" .. query) end
  local prefix = t.prefix
  if sub(path, 1, #t.prefix_slash) ~= t.prefix_slash then return ngx.exec("/_versionary/control") end
  local rest = sub(path, #prefix + 1)
  local slash = find(rest, "/", 2, true)
  local first = sub(rest, 2, (slash or 0) - 1)
  local path_version = version_digits(first)
  if reserved[first] or (path_version and sub(rest, #first + 2) == "/openapi.json") then
    return ngx.exec("/_versionary/control")
  end
  ctx.list = version_list(t, now)
  ctx.api = true
  local version, source = negotiate(t, ctx, path_version)
  if not version then return end
  if not t.version_set[version] then
    return send_problem(t, source == "accept" and "version-unknown-accept" or "version-unknown", nil,
      { version = version })
  end
  local below = path_version and sub(rest, #first + 2) or rest
  if below == "" then below = "/" end
  local method = ngx.req.get_method()
  local found = rules.lookup(t, version, below)
  local route = rules.route_in(found, method)
  local row = route and route.row or t.versionRows[version]
  ngx_var.versionary_version = version
  -- A call of an operation is usage; what reaches none is not (the control plane would skip it).
  if route then ctx.usage = usage_of(route, version, method) end
  if source == "accept" then
    -- Forwarded with its version in the path, as the gateway's rewrite routes it.
    local raw = ctx.instance
    local tail = sub(raw, 1, #prefix + 1) == prefix .. "/" and sub(raw, #prefix + 1) or ngx.escape_uri(rest, 0)
    ctx.instance = prefix .. "/" .. version .. (tail == "/" and "" or tail)
    ngx_var.versionary_target = ctx.instance .. (q and sub(uri, q) or "")
  end
  -- Removed for everyone: answered before the key check, as the gateway's removed gate, unless a
  -- client's own rule may answer first (its extended access, or its minimum version: core's order).
  local retiring = rules.retiring(t, version)
  local pending
  local refused, per_client, headers, problem = rules.removed(row, now)
  if refused then
    if not per_client and not retiring then return send_problem(t, problem, headers) end
    pending = { problem = problem, headers = headers }
  end
  -- The method, as core's methodRule: served only where the route declares it; never forwarded else.
  -- (After the removal, as core orders them, when a client's own row may still serve the path.)
  -- nil: a path no document declares, of a version that does not forward them (the 404 below).
  local declared = rules.methods_in(t, version, found)
  local method_ok = declared and method ~= "OPTIONS" and rules.method_served(declared, method)
  -- OPTIONS asks for no key: the table's rules judge it without a principal (core's decide for an
  -- anonymous call: a brownout of the whole version refuses it), then 204 with Allow on a
  -- documented path, else the 404, as the gateway answers it.
  if method == "OPTIONS" then
    local ok, decided, key, _, retry = rules.decide(row, nil, nil, now, nil, t.versionBrownouts[version])
    if not ok then return send_problem(t, key, decided, retry and { retry = retry }) end
    if declared then return answer_method(t, method, rules.allow_of(declared)) end
    return not_documented(t, version, decided)
  end
  -- A client's minimum version answers before the 405 (core's order): where the table retires this
  -- version for some client, the method's answer waits for the caller.
  if declared and not method_ok and not pending and not retiring then
    return answer_method(t, method, rules.allow_of(declared))
  end
  -- An undocumented path goes nowhere (the 404), nor a method the route does not declare (the 405):
  -- asking them needs no more than `read`, as the gateway asks.
  local unsafe = method_ok and method ~= "GET" and method ~= "HEAD"
  local client = identify(t, ctx, now, unsafe, pending)
  if not client then return end
  ctx.client = client
  ngx_var.versionary_client = client
  -- The client's minimum version, right after the version rule as in core's decide.
  local retired = rules.retired(t, client, version)
  if retired then return send_problem(t, retired) end
  if declared and not method_ok and not pending then return answer_method(t, method, rules.allow_of(declared)) end
  local names = query and route and route.elements[1] and target.query_names(query)
  local ok, decided, key, used, retry = rules.decide(row, route, client, now, names, t.versionBrownouts[version])
  ctx.deprecated = used
  if not ok then return send_problem(t, key, decided, retry and { retry = retry }) end
  if not declared then return not_documented(t, version, decided) end
  if not method_ok then return answer_method(t, method, rules.allow_of(declared)) end
  -- The last word before the upstream, as the gateway's forwarder has it: no stray `%` nor Latin-1 escape goes on.
  if target.undecodable(raw) then return send_problem(t, "target-undecodable") end
  ctx.headers = decided
end

-- A header of the upstream's joined with the rules' value (Link, Vary): both are kept.
local function joined(existing, value)
  if existing == nil then return value end
  if type(existing) == "table" then
    existing[#existing + 1] = value
    return existing
  end
  return { existing, value }
end

--- header_filter_by_lua: the decided headers on the upstream's answer, and whether the call is
--- usage (an nginx 5xx is never a client's call).
function _M.header_filter()
  local ctx = ngx.ctx
  local status = ngx.status
  -- A call of an operation counted once its status is known; an nginx 5xx (not the upstream's own
  -- answer) is no client's call.
  if ctx.usage and not ctx.uncounted
    and (status < 500 or (not ctx.answered and ngx_var.upstream_status == tostring(status))) then
    usage.count(ctx.client or "", ctx.usage, floor(clock_now() / 60000), status, ctx.deprecated)
  end
  if not ctx.api or ctx.answered then return end
  local out = ngx.header
  set_headers(out, ctx.list)
  local decided = ctx.headers
  if decided then
    local list = pairs_of(decided)
    for i = 1, #list, 2 do
      local name, value = list[i], list[i + 1]
      if name == "link" then out[name] = joined(out[name], value) else out[name] = value end
    end
  end
  if ctx.vary then out["vary"] = joined(out["vary"], "Accept") end
  if ctx.rate then
    out["ratelimit-policy"] = ctx.policy_field
    out["ratelimit"] = ctx.rate
  end
end

--- content_by_lua of the upstream's failure (error_page 502 504): the table's problem, not counted.
function _M.upstream_failed()
  local t = table_now()
  if not t then return ngx.exit(ngx.status) end
  local ctx = ngx.ctx
  ctx.instance = match(ngx_var.request_uri, "^[^?]*")
  ctx.list = t and version_list(t, clock_now())
  local timed_out = find(ngx_var.upstream_status or "", "504", 1, true) ~= nil
  ngx.header["connection"] = "close"
  return send_problem(t, timed_out and "upstream-timeout" or "upstream-unreachable")
end

--- content_by_lua of nginx's own 400 (error_page 400): a target nginx cannot decode (`%zz`, `%`,
--- `%00`) gets the table's problem for it, as the gateway answers it; any other 400 stays nginx's.
function _M.bad_request()
  local t = table_now()
  local raw = request_target()
  local reason
  if t and raw then
    if target.unreadable(raw) then
      reason = "unreadable"
    else
      local path, why = target.canonical(raw)
      if not path then reason = why end
    end
  end
  if not reason then return ngx.exit(ngx.HTTP_BAD_REQUEST) end
  if reason ~= "unreadable" then ngx.ctx.instance = match(raw, "^[^?]*") end
  return send_problem(t, "target-" .. reason)
end

--- content_by_lua of nginx's own 405 (error_page 405): TRACE, which nginx refuses before any
--- location, gets the table's 405 with the route's `Allow` under a version, as the gateway answers it.
function _M.not_allowed()
  local t = table_now()
  local raw = request_target()
  local path = t and raw and not target.unreadable(raw) and target.canonical(raw)
  if not path or sub(path, 1, #t.prefix_slash) ~= t.prefix_slash then return ngx.exit(ngx.HTTP_NOT_ALLOWED) end
  local rest = sub(path, #t.prefix + 1)
  local first = match(rest, "^/([^/]*)")
  local version = first and match(first, "^v%d+$")
  if not version or not t.version_set[version] then return ngx.exit(ngx.HTTP_NOT_ALLOWED) end
  local below = sub(rest, #first + 2)
  if below == "" then below = "/" end
  local declared = below == "/openapi.json" and { "GET" } or rules.methods_at(t, version, below)
  ngx.ctx.instance = match(raw, "^[^?]*")
  if not declared then return not_documented(t, version) end
  local method = match(ngx_var.request or "", "^(%S+)") or "TRACE"
  return send_problem(t, "method-not-allowed", nil, { method = method, allow = rules.allow_of(declared) })
end

--- content_by_lua of the push endpoint (a unix socket in the rendered folder's private/, which
--- only nginx's master and the control plane's user reach): with the shared secret in
--- `X-Versionary-Secret`, `PUT /table` stores a new table, `POST /keys/flush` forgets every cached
--- key, `GET /state` tells the table's generation and digest. Without it: core's 401, nothing changed.
function _M.push()
  if not control.is_secret(ngx_var.http_x_versionary_secret, config.secret) then
    return send_rendered(401, config.push_refused, "cache-control", "no-store")
  end
  local uri = ngx_var.uri
  if uri == "/table" then
    ngx.req.read_body()
    local body = ngx.req.get_body_data()
    if not body then
      local file = ngx.req.get_body_file()
      if file then
        local f = io.open(file, "rb")
        if f then
          body = f:read("*a")
          f:close()
        end
      end
    end
    local generation, err = store_table(body or "", tonumber(ngx_var.http_x_versionary_now),
      ngx_var.http_x_versionary_clock == "fixed")
    ngx.status = generation and 200 or 400
    ngx.say(generation and ('{"generation":' .. generation .. "}") or cjson.encode({ error = err }))
    return
  end
  if uri == "/keys/flush" then
    ngx.shared.versionary_keys:flush_all()
    -- Every worker reads the stamp first thing in a request: each drops its own copy of the keys
    -- before it checks one, once this call has answered.
    state:incr("stamp", 1, 0)
    ngx.status = 200
    ngx.say('{"flushed":true}')
    return
  end
  if uri == "/state" then
    ngx.say(cjson.encode({ generation = state:get("generation"), offset = state:get("offset"),
      digest = state:get("digest") }))
    return
  end
  ngx.status = 404
end

return _M
