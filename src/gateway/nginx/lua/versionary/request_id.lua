-- The API location's request ids (`X-Request-Id`, a problem's `requestId`): 32 hex digits, as
-- nginx's `$request_id`, without its 16 random bytes from OpenSSL per request. Each worker draws
-- 12 random bytes once, and a 32-bit xorshift walks every other value before it repeats (then the
-- worker draws again): unique in the logs, and not a count of the worker's requests.
-- Written by `versionary nginx`.
local ffi = require("ffi")
local bit = require("bit")
local bxor, lshift, rshift, tohex, tobit = bit.bxor, bit.lshift, bit.rshift, bit.tohex, bit.tobit
local byte, format, concat = string.byte, string.format, table.concat

ffi.cdef([[int RAND_bytes(unsigned char *buf, int num);]])

local _M = {}
local prefix, state, seed

local function draw()
  local buf = ffi.new("unsigned char[16]")
  if ffi.C.RAND_bytes(buf, 16) ~= 1 then error("versionary: OpenSSL's RAND_bytes failed") end
  local raw = ffi.string(buf, 16)
  local hex = {}
  for i = 1, 12 do hex[i] = format("%02x", byte(raw, i)) end
  prefix = concat(hex)
  local b1, b2, b3, b4 = byte(raw, 13, 16)
  seed = tobit(b1 * 16777216 + b2 * 65536 + b3 * 256 + b4)
  -- xorshift never leaves 0, nor reaches it.
  if seed == 0 then seed = 1 end
  state = seed
end

local function step(x)
  x = bxor(x, lshift(x, 13))
  x = bxor(x, rshift(x, 17))
  return bxor(x, lshift(x, 5))
end

--- A new id.
function _M.next()
  if not prefix then draw() end
  local x = step(state)
  -- Back at the seed: every value of this prefix was given once.
  if x == seed then
    draw()
    x = step(state)
  end
  state = x
  return prefix .. tohex(x, 8)
end

return _M
