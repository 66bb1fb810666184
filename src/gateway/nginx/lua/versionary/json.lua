-- JSON as core writes it: Debian's lua-cjson 2.1.0 escapes `/` as `\/` and has no
-- `encode_escape_forward_slash` (OpenResty's has): the escape is undone, so a problem body is the
-- bytes the service and the gateway send. Written by `versionary nginx`.
local cjson = require("cjson.safe")
local gsub = string.gsub

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

return _M
