-- The control plane as nginx asks it: one HTTP/1.1 call over a kept-alive cosocket (the key
-- check, the table when shared memory has none), and the key cache in shared memory, keyed by the
-- credential's SHA-256 and the role asked. Written by `versionary nginx`.
local ffi = require("ffi")
local bit = require("bit")
local cjson = require("cjson.safe")
local tcp = ngx.socket.tcp
local ngx_now = ngx.now
local find, lower, match, byte = string.find, string.lower, string.match, string.byte
local tonumber, concat, type = tonumber, table.concat, type
local bor, bxor = bit.bor, bit.bxor

ffi.cdef([[unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md);]])
local digest_buf = ffi.new("unsigned char[32]")

local _M = {}
local keys = ngx.shared.versionary_keys
local state = ngx.shared.versionary_state

local digests, digest_count = {}, 0

--- The SHA-256 of a text, hex: the digest of the table in force, which the control plane checks.
function _M.sha256_hex(s)
  ffi.C.SHA256(s, #s, digest_buf)
  return (ffi.string(digest_buf, 32):gsub(".", function(c) return string.format("%02x", byte(c)) end))
end

--- Whether `given` is the shared secret: every byte compared, whatever differs first.
function _M.is_secret(given, secret)
  if type(given) ~= "string" or #given ~= #secret then return false end
  local diff = 0
  for i = 1, #secret do diff = bor(diff, bxor(byte(given, i), byte(secret, i))) end
  return diff == 0
end

--- The shared secret from its file (`versionary nginx` writes it, mode 0600): read once by the
--- master in init_by_lua, so nginx does not start without it.
function _M.read_secret(path)
  local file, err = io.open(path, "rb")
  if not file then error("versionary: cannot read the shared secret (" .. tostring(err) .. "): run versionary nginx, "
    .. "and let nginx's master (root, or the control plane's user) read it", 0) end
  local secret = match(file:read("*a") or "", "^%s*([%w_%-]+)%s*$")
  file:close()
  if not secret or #secret < 43 then error("versionary: the shared secret in " .. path .. " is not base64url", 0) end
  return secret
end

--- The SHA-256 of a credential, base64: what the key cache is keyed by (never the key itself).
--- Each worker remembers the digests of the credentials it saw lately, as the gateway's key cache
--- remembers tokens: a known key costs no hash.
function _M.digest(s)
  local known = digests[s]
  if known then return known end
  ffi.C.SHA256(s, #s, digest_buf)
  local digest = ngx.encode_base64(ffi.string(digest_buf, 32))
  if digest_count >= 10000 then digests, digest_count = {}, 0 end
  digests[s], digest_count = digest, digest_count + 1
  return digest
end

local function read_chunked(sock)
  local parts = {}
  while true do
    local line, err = sock:receive("*l")
    if not line then return nil, err end
    local size = tonumber(match(line, "^%x+"), 16)
    if not size then return nil, "bad chunk" end
    if size == 0 then
      sock:receive("*l")
      return concat(parts)
    end
    local data, derr = sock:receive(size)
    if not data then return nil, derr end
    parts[#parts + 1] = data
    sock:receive("*l")
  end
end

local function exchange(sock, request)
  local sent, err = sock:send(request)
  if not sent then return nil, err end
  local status_line, serr = sock:receive("*l")
  if not status_line then return nil, serr end
  local status = tonumber(match(status_line, "^HTTP/1%.%d (%d%d%d)"))
  if not status then return nil, "bad status line" end
  local length, close, chunked, now
  while true do
    local line, herr = sock:receive("*l")
    if not line then return nil, herr end
    if line == "" then break end
    local name, value = match(line, "^([^:]+):%s*(.-)%s*$")
    if name then
      name = lower(name)
      if name == "content-length" then length = tonumber(value)
      elseif name == "connection" then close = lower(value) == "close"
      elseif name == "transfer-encoding" then chunked = true
      elseif name == "x-versionary-now" then now = tonumber(value) end
    end
  end
  local body, berr = "", nil
  if chunked then body, berr = read_chunked(sock)
  elseif length and length > 0 then body, berr = sock:receive(length) end
  if not body then return nil, berr end
  if close then sock:close() else sock:setkeepalive(30000, 32) end
  return status, body, now
end

-- One call on the control plane, with the shared secret on it: the control plane answers its
-- table and key check, and takes usage, from nginx alone. A kept-alive connection the control
-- plane closed meanwhile is retried once afresh.
local function call(config, request)
  for _ = 1, 2 do
    local sock = tcp()
    sock:settimeouts(1000, 2000, 5000)
    local ok, err = sock:connect(config.control_host, config.control_port)
    if not ok then return nil, err end
    local reused = sock:getreusedtimes() > 0
    local status, body, now = exchange(sock, request)
    if status then return status, body, now end
    sock:close()
    if not reused then return nil, body end
  end
  return nil, "no answer"
end

--- `GET path` on the control plane with extra header lines: status, body and its clock, or nil and why.
function _M.get(config, path, header_lines)
  return call(config, "GET " .. path .. " HTTP/1.1\r\nHost: " .. config.control_authority .. "\r\n"
    .. config.secret_line .. header_lines .. "\r\n")
end

--- `POST path` of a JSON body on the control plane: status and body, or nil and why.
function _M.post(config, path, body)
  return call(config, "POST " .. path .. " HTTP/1.1\r\nHost: " .. config.control_authority .. "\r\n"
    .. config.secret_line .. "Content-Type: application/json\r\nContent-Length: " .. #body .. "\r\n\r\n" .. body)
end

--- Say once per interval (not per request) that the control plane cannot be reached.
function _M.unreachable(config, err)
  if state:add("logged:unreachable", true, config.log_interval) then
    ngx.log(ngx.ERR, "versionary: the control plane at ", config.control_authority, " is unreachable (", err,
      "): cached keys keep working for their TTL, unknown keys are answered 503")
  end
end

local parsed, parsed_count = {}, 0

-- A cache entry as the request reads it: { client, roles, problem }. Entries are parsed once per worker.
local function entry_of(value)
  local entry = parsed[value]
  if entry then return entry end
  entry = cjson.decode(value)
  if not entry then return nil end
  if parsed_count > 10000 then parsed, parsed_count = {}, 0 end
  parsed[value], parsed_count = entry, parsed_count + 1
  return entry
end

-- This worker's copy of the key cache: the decoded entry and when the shared one expires (ngx.now()
-- seconds), so a known key costs a table read instead of a shared-memory read and a string. Dropped
-- whole by `forget_keys` when the table's stamp moves (a key flush bumps it), and past 10000 keys.
local held, held_until, held_count = {}, {}, 0

local function hold(cache_key, entry, ttl)
  if held_count >= 10000 then held, held_until, held_count = {}, {}, 0 end
  -- A shared entry without an expiry (ttl 0) has none here either.
  held[cache_key], held_until[cache_key] = entry, ttl > 0 and ngx_now() + ttl or math.huge
  held_count = held_count + 1
end

--- Forget this worker's copy of the key cache (the stamp moved: a flush, or a new table).
function _M.forget_keys()
  if held_count > 0 then held, held_until, held_count = {}, {}, 0 end
end

--- The control plane's answer for a credential and role: `{ client, roles }`, `{ problem }` (401),
--- or both (a client without the role: 403). From the cache for safe methods; unsafe methods are
--- always asked afresh, so none rides on a revoked key. Returns entry, or nil and the reason.
function _M.check(config, cache_key, header_lines, role, fresh)
  if not fresh then
    local entry = held[cache_key]
    if entry and held_until[cache_key] > ngx_now() then return entry end
    local value = keys:get(cache_key)
    if value then
      entry = entry_of(value)
      -- Expired meanwhile (no ttl): not held.
      local ttl = entry and keys:ttl(cache_key)
      if ttl then hold(cache_key, entry, ttl) end
      return entry
    end
  end
  local status, body = _M.get(config, config.auth_path, "X-Versionary-Role: " .. role .. "\r\n" .. header_lines)
  if status ~= 200 then
    _M.unreachable(config, status and ("status " .. status) or body)
    return nil, "unreachable"
  end
  local entry = entry_of(body)
  if not entry then return nil, "unreadable" end
  -- A 5xx of the control plane's own (its store down) is not kept.
  if not (entry.problem and entry.problem.status >= 500) then
    keys:set(cache_key, body, config.key_ttl)
    hold(cache_key, entry, config.key_ttl)
  end
  return entry
end

--- A credential as the limit and the cache know it: `Bearer` in any case, spaces around it, or
--- X-API-Key; nil when it cannot be read (the control plane answers its 401).
local bearers, bearer_count = {}, 0
local api_keys, api_key_count = {}, 0

local function api_key_token(api_key)
  if #api_key > 8192 then return false end
  local token = match(api_key, "^%s*(.-)%s*$")
  return token ~= "" and not find(token, "[^!-~]") and token or false
end

function _M.token_of(authorization, api_key)
  -- A client sends its one credential again and again: each is read once per worker (false: unreadable).
  if authorization then
    local token = bearers[authorization]
    if token == nil then
      token = match(authorization, "^[Bb][Ee][Aa][Rr][Ee][Rr] +([!-~]+) *$") or false
      if bearer_count >= 10000 then bearers, bearer_count = {}, 0 end
      bearers[authorization], bearer_count = token, bearer_count + 1
    end
    return token or nil
  end
  if not api_key then return nil end
  local token = api_keys[api_key]
  if token == nil then
    token = api_key_token(api_key)
    -- A key too long to be one is not remembered.
    if #api_key <= 8192 then
      if api_key_count >= 10000 then api_keys, api_key_count = {}, 0 end
      api_keys[api_key], api_key_count = token, api_key_count + 1
    end
  end
  return token or nil
end

local credentials, credential_count = {}, 0

--- A readable credential's cache keys by role (`read`, `write`) and its header line for the key
--- check, built once per worker.
function _M.credential_of(token)
  local known = credentials[token]
  if known then return known end
  local digest = _M.digest(token)
  known = { read = "read" .. digest, write = "write" .. digest, lines = "Authorization: Bearer " .. token .. "\r\n" }
  if credential_count >= 10000 then credentials, credential_count = {}, 0 end
  credentials[token], credential_count = known, credential_count + 1
  return known
end

return _M
