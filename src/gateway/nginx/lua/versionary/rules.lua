-- The decision table (docs/decision-table.md, format 1) as nginx reads it: decoded once per
-- generation and indexed, then interpreted exactly as core's `decide` (src/core/rulebook/).
-- Every text comes from the table; this file only looks rows up and compares instants.
-- Written by `versionary nginx`.
local cjson = require("cjson.safe")
local json = require("versionary.json")
local floor, ceil, max = math.floor, math.ceil, math.max
local find, sub, gsub, byte = string.find, string.sub, string.gsub, string.byte
local pairs, ipairs, tostring = pairs, ipairs, tostring

local _M = {}
local day_ms = 86400000

local function set_of(list)
  local set = {}
  if list then for _, v in ipairs(list) do set[v] = true end end
  return set
end

local function index_subject(subject)
  if subject.closings then
    for _, c in ipairs(subject.closings) do c.allowed_set = set_of(c.allowed) end
  end
end

-- The route index of a version: a tree of the templates' segments. A node's `literal` children by
-- segment, its `param` child for a `{name}` segment, and at a template's end its `routes` by
-- method and `order` (the table's position of each method's first route there, for `Allow`).
local function new_node() return { literal = {} } end

local function add_template(root, template, method, route, position)
  local node, at = root, 2
  local n = #template
  while at <= n do
    local slash = find(template, "/", at, true)
    local segment = sub(template, at, (slash or 0) - 1)
    if byte(segment, 1) == 123 and byte(segment, -1) == 125 then
      node.param = node.param or new_node()
      node = node.param
    else
      local child = node.literal[segment] or new_node()
      node.literal[segment] = child
      node = child
    end
    at = slash and slash + 1 or n + 1
  end
  node.routes = node.routes or {}
  node.order = node.order or {}
  if not node.routes[method] then
    node.routes[method] = route
    node.order[#node.order + 1] = { method = method, position = position }
  end
end

-- Every template's end a path below the version reaches, literal segments before parameters (the
-- first is the most literal: core's templateAt). `found` gathers them; no pattern is matched.
local function walk(node, path, from, found)
  if not from then
    if node.routes then found[#found + 1] = node end
    return
  end
  local slash = find(path, "/", from, true)
  local segment = sub(path, from, (slash or 0) - 1)
  local next_from = slash and slash + 1 or nil
  local child = node.literal[segment]
  if child then walk(child, path, next_from, found) end
  if node.param and segment ~= "" then walk(node.param, path, next_from, found) end
end

-- The body of a problem as JSON without its closing brace: `instance` and the request id are added per request.
local function index_problem(problem)
  local body = json.encode(problem.body)
  if problem.headers == nil or problem.headers == cjson.null then problem.headers = {} end
  problem.prefix = sub(body, 1, #body - 1)
  problem.placeholders = find(body, "{", 2, true) ~= nil
end

_M.index_problem = index_problem

-- Each version's place (oldest first), the clients' minimum versions, and the newest minimum: the
-- versions before it are retired for some client (core's minimumVersionRule).
local function index_minimums(t)
  t.version_index = {}
  for i, v in ipairs(t.versions) do t.version_index[v] = i end
  local minimums = t.minimumVersions
  if minimums == nil or minimums == cjson.null then minimums = {} end
  t.minimums = minimums
  local newest = 0
  for _, m in pairs(minimums) do
    local i = t.version_index[m.version]
    if i and i > newest then newest = i end
  end
  t.retiring_below = newest
end

-- The `RateLimit` field's head (the policy's name, up to its first `;`): written per call after it.
local function index_policy(policy)
  local field = policy.policyField
  local semicolon = find(field, ";", 1, true)
  policy.rate_head = semicolon and sub(field, 1, semicolon - 1) or field
end

--- Decode a table's JSON and index it: routes by version, method and template, sets for
--- closings and brownout targets, problems pre-encoded. Returns nil and why when it is not format 1.
function _M.decode(json)
  local t, err = cjson.decode(json)
  if not t then return nil, "not JSON: " .. tostring(err) end
  if t.format ~= 1 then return nil, "format " .. tostring(t.format) .. " is not 1" end
  t.version_set = set_of(t.versions)
  index_minimums(t)
  t.undocumented_set = set_of(t.forwardUndocumented ~= cjson.null and t.forwardUndocumented or nil)
  t.vendor_prefix = ("application/vnd." .. t.vendor .. "."):lower()
  t.prefix_slash = t.prefix .. "/"
  for _, row in pairs(t.versionRows) do index_subject(row) end
  if t.versionBrownouts == nil or t.versionBrownouts == cjson.null then t.versionBrownouts = {} end
  for _, rows in pairs(t.versionBrownouts) do
    for _, b in ipairs(rows) do
      if b.clients then b.clients_set = set_of(b.clients) end
      if b.spared == cjson.null then b.spared = nil end
    end
  end
  t.index = {}
  for version, rows in pairs(t.routes) do
    local root, all, seen = new_node(), {}, {}
    for position, route in ipairs(rows) do
      index_subject(route.row)
      for _, e in ipairs(route.elements) do index_subject(e) end
      for _, b in ipairs(route.brownouts) do
        if b.clients then b.clients_set = set_of(b.clients) end
        if b.spared == cjson.null then b.spared = nil end
      end
      add_template(root, route.template, route.method, route, position)
      if route.method ~= "HEAD" and not seen[route.method] then
        seen[route.method] = true
        all[#all + 1] = route.method
      end
    end
    t.index[version] = { root = root, all = all }
  end
  for _, problem in pairs(t.problems) do index_problem(problem) end
  local policies = t.policies or {}
  t.base_policy = policies.base
  t.role_policies = policies.roles or {}
  if t.base_policy then index_policy(t.base_policy) end
  for _, policy in pairs(t.role_policies) do index_policy(policy) end
  return t
end

--- The templates' ends a canonical path below the version reaches, most literal first (nil: none).
function _M.lookup(t, version, below)
  local index = t.index[version]
  if not index then return nil end
  local found = {}
  walk(index.root, below, below ~= "/" and 2 or nil, found)
  return found[1] and found or nil
end

--- The route of a method among what `lookup` found (HEAD judged as GET): the most literal template's.
function _M.route_in(found, method)
  if not found then return nil end
  if method == "HEAD" then method = "GET" end
  for i = 1, #found do
    local route = found[i].routes[method]
    if route then return route end
  end
  return nil
end

-- At module level: a closure inside `methods_in` would keep LuaJIT from compiling it (UCLO is NYI).
local function by_position(a, b) return a.position < b.position end

--- The methods the operations at a path declare, in the table's order (core's methodsAt); for a
--- path no template matches, every method of the version's operations where the version forwards
--- undocumented paths ('version'), else nil: no document's path (the 404).
function _M.methods_in(t, version, found)
  if not found then
    local index = t.index[version]
    if not index then return {} end
    return t.undocumented_set[version] and index.all or nil
  end
  local only = found[1]
  if not found[2] then
    if not only.declared then
      local declared = {}
      for i, o in ipairs(only.order) do if o.method ~= "HEAD" then declared[#declared + 1] = o.method end end
      only.declared = declared
    end
    return only.declared
  end
  -- A path two templates reach: their methods merged by the table's order.
  local merged = {}
  for _, node in ipairs(found) do
    for _, o in ipairs(node.order) do
      if o.method ~= "HEAD" then merged[#merged + 1] = o end
    end
  end
  table.sort(merged, by_position)
  local declared, seen = {}, {}
  for _, o in ipairs(merged) do
    if not seen[o.method] then
      seen[o.method] = true
      declared[#declared + 1] = o.method
    end
  end
  return declared
end

--- The methods declared at a path below the version (`lookup` and `methods_in` at once).
function _M.methods_at(t, version, below)
  return _M.methods_in(t, version, _M.lookup(t, version, below))
end

--- `Allow` of the declared methods: HEAD beside GET, OPTIONS, never TRACE (core's allowOf).
function _M.allow_of(declared)
  local out, get = {}, false
  for _, m in ipairs(declared) do
    if m ~= "TRACE" and m ~= "HEAD" and m ~= "OPTIONS" then
      out[#out + 1] = m
      if m == "GET" then get = true end
    end
  end
  if get then out[#out + 1] = "HEAD" end
  out[#out + 1] = "OPTIONS"
  return table.concat(out, ", ")
end

--- Whether a method is served where these methods are declared (core's methodRule): HEAD as GET,
--- OPTIONS answered by nginx itself, TRACE never.
function _M.method_served(declared, method)
  if method == "HEAD" then method = "GET" end
  if method == "TRACE" then return false end
  -- A set made once per list (the table's lists live as long as it): no loop per request, which
  -- LuaJIT's root trace cannot hold.
  local served = declared.served
  if not served then
    served = set_of(declared)
    declared.served = served
  end
  return served[method] == true
end

--- The segment in force at `now`: the last whose `from` is at or before it.
local function segment_at(segments, now)
  for i = #segments, 2, -1 do
    if segments[i].from <= now then return segments[i] end
  end
  return segments[1]
end
_M.segment_at = segment_at

--- A segment's headers at `now`, `{days}` counted down to its `daysTo`.
local function headers_at(segment, now)
  local days_to = segment.daysTo
  if not days_to then return segment.headers end
  local days = floor((days_to - now) / day_ms)
  -- The count changes once a day: its headers are written then, not per request.
  if segment.days == days then return segment.days_headers end
  local out, text = {}, tostring(days)
  for name, value in pairs(segment.headers) do out[name] = gsub(value, "{days}", text) end
  segment.days, segment.days_headers = days, out
  return out
end

-- Two header tables merged (b's names over a's), made once per pair: both are the table's rows'
-- (or a day's headers of them), read and never changed, so the merge is too, and its walk as an
-- array (`pairs_of`) is made once with it.
local overlays = setmetatable({}, { __mode = "k" })
local function overlay(a, b)
  local by_b = overlays[a]
  if not by_b then
    by_b = setmetatable({}, { __mode = "k" })
    overlays[a] = by_b
  end
  local out = by_b[b]
  if out then return out end
  out = {}
  for k, v in pairs(a) do out[k] = v end
  for k, v in pairs(b) do out[k] = v end
  by_b[b] = out
  return out
end
_M.overlay = overlay

--- Judge one subject (version, operation or element) for a client: core's judgeSubject.
--- Returns allowed, headers, problem key.
local function judge(subject, client, now)
  local access = client and subject.extendedAccess
  local own = access and access ~= cjson.null and access[client]
  local segment = segment_at(own and own.segments or subject.segments, now)
  local headers = headers_at(segment, now)
  if segment.outcome == "refuse" then return false, headers, segment.problem end
  local closings = subject.closings
  -- A closing guards the subject while it is open to all: past the removal, a client with its own
  -- row (extended access) is served, closing or not.
  if closings and (not own or segment_at(subject.segments, now).outcome ~= "refuse") then
    for _, c in ipairs(closings) do
      if now >= c.at and (not client or not c.allowed_set[client]) then return false, headers, c.problem end
    end
  end
  return true, headers
end
_M.judge = judge

--- Whether the subject refuses everyone but the clients with their own row at `now`: the gate
--- before the key check, as the gateway's removed gate. Returns refused, whether some client's
--- own row may still allow it, the headers and the problem key.
function _M.removed(subject, now)
  local segment = segment_at(subject.segments, now)
  if segment.outcome ~= "refuse" then return false end
  local access = subject.extendedAccess
  local per_client = access ~= nil and access ~= cjson.null and next(access) ~= nil
  return true, per_client, headers_at(segment, now), segment.problem
end

--- The rules after the key check: lifecycle (with the client's own row and the closings), the
--- deprecated parameters used, the brownouts. Returns allowed, headers, problem key, the names of
--- the deprecated elements used (comma-separated), and a brownout's retry-after. A path with no
--- route is reached by its version's whole-version brownouts (`version_brownouts`).
function _M.decide(row, route, client, now, names, version_brownouts)
  local ok, headers, problem = judge(row, client, now)
  if not ok then return false, headers, problem end
  local used
  if route and names then
    local first
    for _, e in ipairs(route.elements) do
      if e.kind == "parameter" and names[e.parameter] then
        used = used and (used .. "," .. e.name) or e.name
        local eok, eheaders, eproblem = judge(e, client, now)
        if not eok then return false, overlay(headers, eheaders), eproblem, used end
        first = first or eheaders
      end
    end
    if first then headers = overlay(headers, first) end
  end
  local brownouts = route and route.brownouts or version_brownouts
  if brownouts then
    for _, b in ipairs(brownouts) do
      if now >= b.startsAt and now < b.endsAt and (not b.clients_set or (client and b.clients_set[client])) then
        local spared = client and b.spared and b.spared[client]
        if not (spared and spared > now) then
          return false, headers, b.problem, used, tostring(max(1, ceil((b.endsAt - now) / 1000)))
        end
      end
    end
  end
  return true, headers, nil, used
end

--- Whether some client's minimum version is after this version: then a refusal before the key
--- check (the removal, the 405) waits for the client, whose own minimum answers first.
function _M.retiring(t, version)
  local i = t.version_index[version]
  return i ~= nil and i < t.retiring_below
end

--- The problem key of a client's call to a version before its minimum (core's
--- minimumVersionRule), or nil: other clients, and a minimum the table does not know, pass.
function _M.retired(t, client, version)
  local minimum = client and t.minimums[client]
  if not minimum then return nil end
  local at_least, asked = t.version_index[minimum.version], t.version_index[version]
  if at_least and asked and asked < at_least then return minimum.problem end
  return nil
end

--- The rate-limit policy of a principal's roles: the most generous (a role without its own counts as base).
function _M.policy_of(t, roles)
  local base = t.base_policy
  if not base or not roles or roles[1] == nil then return base end
  local best
  for _, role in ipairs(roles) do
    local policy = t.role_policies[role] or base
    if not best or policy.max > best.max then best = policy end
  end
  return best or base
end

--- The counter a client's call counts against: one per client and policy (core's rateCounterKey).
function _M.counter_key(client, policy)
  -- Made once per client and policy (the policy is the table's: dropped with it).
  local known = policy.counter_keys
  if not known then
    known = {}
    policy.counter_keys, policy.counter_key_count = known, 0
  end
  local key = known[client]
  if key then return key end
  key = "client:" .. policy.name .. ":" .. client
  if policy.counter_key_count >= 10000 then
    known = {}
    policy.counter_keys, policy.counter_key_count = known, 0
  end
  known[client], policy.counter_key_count = key, policy.counter_key_count + 1
  return key
end

return _M
