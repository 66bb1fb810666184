import { isIPv4, isIPv6 } from 'node:net';

/**
 * The rate-limit key of a client address: `ip:<IPv4>`, or for IPv6 the /64 network the address
 * belongs to (`ip:2001:db8:0:1::/64`), since one subscriber usually holds a whole /64 and could
 * otherwise take a fresh address, and a fresh budget, for every request. IPv4-mapped IPv6
 * addresses count as their IPv4 address.
 */
export function addressKey(ip: string): string {
  // Every request asks, and most come from a few addresses: Node's isIPv6 is a large regular
  // expression, so remember the answers (bounded: cleared when full, so a scan of fresh addresses costs only the miss).
  let key = memo.get(ip);
  if (key === undefined) {
    if (memo.size >= memoMax) memo.clear();
    key = computeAddressKey(ip);
    memo.set(ip, key);
  }
  return key;
}

const memo = new Map<string, string>();
const memoMax = 10_000;

function computeAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return `ip:${mapped[1]}`;
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return `ip:${ip}`;
  return `ip:${expandIPv6(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address, without leading zeros. */
function expandIPv6(ip: string): string[] {
  // An embedded IPv4 tail (::1.2.3.4) is two hextets.
  const withV4 = ip.replace(/\d+\.\d+\.\d+\.\d+$/, (quad) => {
    const [a = 0, b = 0, c = 0, d = 0] = quad.split('.').map(Number);
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  });
  const [head = '', tail] = withV4.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((h) => Number.parseInt(h, 16).toString(16));
}
