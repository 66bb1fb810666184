-- The request target as the rulebook reads it: the strict check and the one decoding of
-- core's canonicalPath (src/core/rulebook/canonical-path.ts), the versions Accept names
-- (core's parseAccept) and the query's parameter names. Written by `versionary nginx`.
local byte, find, sub, lower, gsub, char = string.byte, string.find, string.sub, string.lower, string.gsub, string.char
local match, concat = string.match, table.concat
local tonumber = tonumber

local _M = {}

-- The path of a target: origin form, without the query or fragment.
local function path_of(target)
  if byte(target, 1) ~= 47 then
    local s, e = find(lower(sub(target, 1, 8)), "^https?://")
    if not s then return nil end
    local rest = sub(target, e + 1)
    local slash = find(rest, "[/?#]")
    if not slash then return "/" end
    target = sub(rest, slash)
    if byte(target, 1) ~= 47 then target = "/" .. target end
  end
  -- Plain finds, no pattern: where the query or the fragment starts, whichever is first.
  local q, h = find(target, "?", 1, true), find(target, "#", 1, true)
  if h and (not q or h < q) then q = h end
  if q then return sub(target, 1, q - 1), sub(target, q + 1) end
  return target, nil
end

-- Whether a byte string is well-formed UTF-8 (decodeURIComponent refuses the rest).
local function utf8_valid(s)
  local i, n = 1, #s
  while i <= n do
    local c = byte(s, i)
    local len
    if c < 0x80 then len = 1
    elseif c >= 0xC2 and c <= 0xDF then len = 2
    elseif c >= 0xE0 and c <= 0xEF then len = 3
    elseif c >= 0xF0 and c <= 0xF4 then len = 4
    else return false end
    for k = 1, len - 1 do
      local cc = byte(s, i + k)
      if not cc or cc < 0x80 or cc > 0xBF then return false end
    end
    if len == 3 then
      local c2 = byte(s, i + 1)
      if (c == 0xE0 and c2 < 0xA0) or (c == 0xED and c2 > 0x9F) then return false end
    elseif len == 4 then
      local c2 = byte(s, i + 1)
      if (c == 0xF0 and c2 < 0x90) or (c == 0xF4 and c2 > 0x8F) then return false end
    end
    i = i + len
  end
  return true
end

local function hex_char(h) return char(tonumber(h, 16)) end

-- Each hex digit's value by its byte: escapes are read with no pattern per request.
local hex_value = {}
for i = 0, 9 do hex_value[48 + i] = i end
for i = 0, 5 do hex_value[65 + i], hex_value[97 + i] = 10 + i, 10 + i end

-- `s` with every `%XX` decoded; nil when a `%` is not followed by two hex digits.
local function percent_decoded(s)
  local at = find(s, "%", 1, true)
  if not at then return s end
  local out, from = {}, 1
  while at do
    local high, low = byte(s, at + 1, at + 2)
    high, low = hex_value[high], hex_value[low]
    if not high or not low then return nil end
    out[#out + 1] = sub(s, from, at - 1)
    out[#out + 1] = char(high * 16 + low)
    from = at + 3
    at = find(s, "%", from, true)
  end
  out[#out + 1] = sub(s, from)
  return concat(out)
end

-- Whether a segment reads `.` or `..` once `%2e` is decoded (core's dot-segment check).
local function dot_segment(segment)
  local i, n, dots = 1, #segment, 0
  while i <= n do
    local b = byte(segment, i)
    if b == 46 then
      i = i + 1
    elseif b == 37 and byte(segment, i + 1) == 50 and (byte(segment, i + 2) == 101 or byte(segment, i + 2) == 69) then
      i = i + 3
    else
      return false
    end
    dots = dots + 1
  end
  return dots == 1 or dots == 2
end

-- Why the path is refused (the table's `target-<reason>`), checked in core's order; nil when it has one meaning.
local function refusal_of(path)
  if not find(path, "%", 1, true) and not find(path, ";", 1, true) and not find(path, "\\", 1, true)
    and not find(path, "//", 1, true) and not find(path, "/.", 1, true) then
    return nil
  end
  if find(path, "\\", 1, true) then return "backslash" end
  if find(path, "//", 1, true) then return "empty-segment" end
  if find(path, ";", 1, true) then return "semicolon" end
  local at = find(path, "%", 1, true)
  while at do
    local high, low = byte(path, at + 1, at + 2)
    high, low = hex_value[high], hex_value[low]
    if not high or not low then return "bad-escape" end
    local code = high * 16 + low
    if code == 0x2f or code == 0x5c then return "encoded-separator" end
    if code < 0x20 or code == 0x7f then return "encoded-control" end
    at = find(path, "%", at + 1, true)
  end
  local start = 1
  while true do
    local slash = find(path, "/", start, true)
    if dot_segment(sub(path, start, (slash or 0) - 1)) then return "dot-segment" end
    if not slash then break end
    start = slash + 1
  end
  return nil
end

--- Whether a raw target holds a byte no target may hold: a control, a space, DEL or a raw
--- non-ASCII byte (core's targetUnreadable), which Node's parser refuses before any route.
function _M.unreadable(target)
  for i = 1, #target do
    local b = byte(target, i)
    if b < 33 or b > 126 then return true end
  end
  return false
end

--- Whether a target (query included) is not percent-encoded UTF-8 (core's targetUndecodable):
--- what is refused rather than forwarded.
function _M.undecodable(target)
  if not find(target, "%", 1, true) then return false end
  local decoded = percent_decoded(target)
  return not decoded or not utf8_valid(decoded)
end

--- The canonical path of a raw target and its query: `path, query` or `nil, reason`.
function _M.canonical(target)
  local path, query = path_of(target)
  if not path then return nil, "not-a-path" end
  local refused = refusal_of(path)
  if refused then return nil, refused end
  local n = #path
  if n > 1 and byte(path, n) == 47 then path = sub(path, 1, n - 1) end
  if find(path, "%", 1, true) then
    -- Every escape is two hex digits here (refusal_of said so).
    path = percent_decoded(path)
    if not utf8_valid(path) then return nil, "bad-escape" end
  end
  return path, query
end

local function read_version(info, raw, source)
  local digits = raw:match("^[vV]?([1-9]%d?%d?%d?%d?%d?)$")
  if digits then
    local n = tonumber(digits)
    if not info.seen[n] then
      info.seen[n] = true
      info.versions[#info.versions + 1] = n
    end
  else
    info.malformed[#info.malformed + 1] = source
  end
end

local json_like = {
  ["application/json"] = true, ["application/problem+json"] = true, ["application/*"] = true, ["*/*"] = true,
}

local function trim(s) return (gsub(s, "^%s+", ""):gsub("%s+$", "")) end

--- What Accept says: `{ versions = {n...}, malformed = {...}, json = bool }`, as core's parseAccept.
local function parse_accept(header, vendor_prefix)
  local info = { versions = {}, malformed = {}, seen = {}, json = header == nil or trim(header) == "" }
  if not header or header == "" then return info end
  local ranges = 0
  for range in (header .. ","):gmatch("([^,]*),") do
    ranges = ranges + 1
    if ranges > 32 then break end
    local parts = {}
    for part in (range .. ";"):gmatch("([^;]*);") do parts[#parts + 1] = part end
    local media = lower(trim(parts[1] or ""))
    local q
    local versions = {}
    for i = 2, #parts do
      local k, v = parts[i]:match("^([^=]*)=?(.*)$")
      k = lower(trim(k))
      v = gsub(trim(v), '^"', ""):gsub('"$', "")
      if k == "q" and q == nil then q = v end
      if k == "version" then versions[#versions + 1] = v end
    end
    if not (q ~= nil and tonumber(q) == 0) then
      local vendor = sub(media, 1, #vendor_prefix) == vendor_prefix and media:match("^(.*)%+json$", #vendor_prefix + 1)
      if vendor then read_version(info, vendor, media) end
      if vendor or json_like[media] or media:match("^application/[a-z0-9.+-]*%+json$") then
        info.json = true
        for _, v in ipairs(versions) do read_version(info, v, media .. "; version=" .. v) end
      end
    end
  end
  return info
end

-- Clients send a few spellings of Accept again and again: each is parsed once per worker (the
-- answer is read, never changed), forgotten all at once past 1000.
local accepted, accepted_count, accepted_prefix = {}, 0, nil

function _M.accept(header, vendor_prefix)
  if vendor_prefix ~= accepted_prefix then accepted, accepted_count, accepted_prefix = {}, 0, vendor_prefix end
  local info = accepted[header]
  if info then return info end
  info = parse_accept(header, vendor_prefix)
  if #header <= 512 then
    if accepted_count >= 1000 then accepted, accepted_count = {}, 0 end
    accepted[header], accepted_count = info, accepted_count + 1
  end
  return info
end

-- The space bytes `%s` trims (C locale): tab, line feed, vertical tab, form feed, carriage return, space.
local function is_space(b)
  return b == 32 or (b ~= nil and b >= 9 and b <= 13)
end

-- A parameter's name from its pair's bytes `from` to `to` (before any `=`): `+` a space, escapes
-- decoded, cut at `[`, trimmed, lower-case. A plain name (no `+`, `%` nor `[`, the usual) is only
-- trimmed and lowered; another goes the long way, with the patterns.
local function name_of(query, from, to)
  local equals = find(query, "=", from, true)
  if equals and equals <= to then to = equals - 1 end
  local raw = sub(query, from, to)
  if find(raw, "+", 1, true) or find(raw, "%", 1, true) or find(raw, "[", 1, true) then
    local name = gsub(gsub(raw, "+", " "), "%%(%x%x)", hex_char)
    return lower(trim(match(name, "^[^%[]*")))
  end
  local first, last = 1, #raw
  while is_space(byte(raw, first)) do first = first + 1 end
  while last >= first and is_space(byte(raw, last)) do last = last - 1 end
  return lower(sub(raw, first, last))
end

--- The query's parameter names as loosely as any upstream reads them: pairs split at `&` and `;`,
--- decoded, lower-case, cut at `[`; as a set.
function _M.query_names(query)
  local names, from, n = {}, 1, #query
  for i = 1, n + 1 do
    local b = byte(query, i)
    -- The end of a pair: `&`, `;` or the query's end.
    if b == nil or b == 38 or b == 59 then
      local name = name_of(query, from, i - 1)
      if name ~= "" then names[name] = true end
      from = i + 1
    end
  end
  return names
end

return _M
