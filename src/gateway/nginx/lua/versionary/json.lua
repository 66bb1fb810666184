-- JSON as core writes it: Debian's lua-cjson 2.1.0 escapes `/` as `\/` and has no
-- `encode_escape_forward_slash` (OpenResty's has): the escape is undone, so a problem body is the
-- bytes the service and the gateway send. Written by `versionary nginx`.
local cjson = require("cjson.safe")
local gsub, byte, sub, format, concat = string.gsub, string.byte, string.sub, string.format, table.concat

local _M = {}

if cjson.encode_escape_forward_slash then
  cjson.encode_escape_forward_slash(false)
  _M.encode = cjson.encode
else
  -- Every `\` of a string is encoded `\\` and every `/` `\/`: a `\` before a `/` is always the escape.
  function _M.encode(value)
    local text, err = cjson.encode(value)
    if not text then return nil, err end
    return (gsub(text, "\\/", "/"))
  end
end

-- What lua-cjson escapes in a string, as it escapes it (`/` left as core writes it): the controls,
-- `"`, `\` and DEL. Every other byte, UTF-8 included, goes as it is.
local escapes = {}
for b = 0, 31 do escapes[b] = format("\\u%04x", b) end
escapes[8], escapes[9], escapes[10], escapes[12], escapes[13] = "\\b", "\\t", "\\n", "\\f", "\\r"
escapes[34], escapes[92], escapes[127] = '\\"', "\\\\", "\\u007f"

--- A string's JSON text without its quotes, byte for byte what `encode` writes between them: per
--- request (a problem's `instance`, its placeholders' values) with no encoder call and no pattern.
function _M.string_body(s)
  local n, from, out = #s, 1, nil
  for i = 1, n do
    local escape = escapes[byte(s, i)]
    if escape then
      out = out or {}
      out[#out + 1] = sub(s, from, i - 1)
      out[#out + 1] = escape
      from = i + 1
    end
  end
  if not out then return s end
  out[#out + 1] = sub(s, from, n)
  return concat(out)
end

return _M
