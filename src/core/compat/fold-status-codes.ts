import type { Change } from './types.ts';

const RESPONSE = /\/responses\/([^/]+)(?=\/|$)/;
const HEADER = /\/headers\/([^/]+)(?=\/|$)/;

/**
 * One rule repeated on one operation across its responses is one line that lists the status
 * codes (and, for header rules, the headers): a version that stops sending four deprecation
 * headers on five responses is one change to each operation, not twenty.
 */
export function foldStatusCodes(changes: readonly Change[]): Change[] {
  const groups = new Map<string, { first: Change; codes: string[]; headers: string[] }>();
  const out: (Change | { first: Change; codes: string[]; headers: string[] })[] = [];
  for (const change of changes) {
    const code = RESPONSE.exec(change.location.pointer)?.[1];
    if (change.location.method === undefined || code === undefined) {
      out.push(change);
      continue;
    }
    const rest = change.location.pointer.replace(RESPONSE, '/responses/*');
    const header = change.id.includes('-header-') ? HEADER.exec(rest)?.[1] : undefined;
    const place = header === undefined ? rest : rest.replace(HEADER, '/headers/*');
    // A value that only repeats the code or the header name (`oldValue: '410'`) is not a difference.
    const values = [change.oldValue, change.newValue]
      .map((v) => (v === code || (header !== undefined && v === header) ? '*' : JSON.stringify(v)))
      .join('|');
    const key = `${change.id}|${change.location.method} ${change.location.path ?? ''}|${change.location.document ?? ''}#${place}|${values}`;
    let group = groups.get(key);
    if (group === undefined) {
      groups.set(key, (group = { first: change, codes: [], headers: [] }));
      out.push(group);
    }
    if (!group.codes.includes(code)) group.codes.push(code);
    if (header !== undefined && !group.headers.includes(header)) group.headers.push(header);
  }
  return out.map((entry) => ('id' in entry ? entry : folded(entry)));
}

function folded(group: { first: Change; codes: string[]; headers: string[] }): Change {
  const { first, codes, headers } = group;
  if (codes.length === 1 && headers.length <= 1) return first;
  const code = RESPONSE.exec(first.location.pointer)?.[1] ?? '';
  let message = first.message;
  if (codes.length > 1) {
    message = message
      .replace(`The ${code} response no longer has`, `The ${code} response no longer have`)
      .replace(`The ${code} response is`, `The ${code} response are`)
      .replace(`A ${code} response may`, `The ${code} response may`)
      .replace(`The ${code} response`, `The ${codes.join(', ')} responses`);
  }
  const header = headers[0];
  if (header !== undefined && headers.length > 1)
    message = message.replace(`the ${header} header`, `the ${headers.join(', ')} headers`);
  if (message === first.message) message = `${message} (responses ${codes.join(', ')})`;
  // Values that named one code or header now name them all.
  const listed = (v: unknown) =>
    v === code && codes.length > 1 ? codes : v === headers[0] && headers.length > 1 ? headers : v;
  const out: Change = {
    ...first,
    location: { ...first.location, statusCodes: codes, ...(headers.length > 1 ? { headers } : {}) },
    message,
  };
  if (first.oldValue !== undefined) out.oldValue = listed(first.oldValue);
  if (first.newValue !== undefined) out.newValue = listed(first.newValue);
  return out;
}
