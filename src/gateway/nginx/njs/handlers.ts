import { njsAnalyze, type NjsAnalysis, type NjsData, type NjsProblem } from './lifecycle.ts';

/**
 * The functions nginx calls (`js_set`, `js_content`), rendered into `versionary.js` by their
 * source text beside those of `lifecycle.ts`, in the same njs-safe subset. `DATA` is the rendered
 * lifecycle, a global of that module; `MEMO` keeps one request's analysis, since njs gives each
 * request a VM of its own and `js_set` variables are read several times.
 */
declare const DATA: NjsData;
declare let MEMO: { r: NginxRequest; a: NjsAnalysis } | null;
declare const require: (name: string) => {
  createHash(alg: string): { update(s: string): { digest(e: string): string } };
};

/** The part of njs's request object these functions use. */
export interface NginxRequest {
  method: string;
  variables: Record<string, string | undefined>;
  headersIn: Record<string, string | undefined>;
  headersOut: Record<string, string | undefined>;
  return(status: number, body?: string): void;
}

export function ngxAnalysis(r: NginxRequest): NjsAnalysis {
  if (MEMO && MEMO.r === r) return MEMO.a;
  const a = njsAnalyze(DATA, r.method, r.variables.request_uri || '/', r.headersIn.Accept || '', Date.now());
  MEMO = { r: r, a: a };
  return a;
}

/** `gate` (refused before the key check), `late` (after it), `api` (forwarded), or empty (not the API). */
export function ngxRoute(r: NginxRequest): string {
  const a = ngxAnalysis(r);
  return a.gate ? 'gate' : a.late ? 'late' : a.api ? 'api' : '';
}

export function ngxVersion(r: NginxRequest): string {
  return ngxAnalysis(r).version;
}

export function ngxOperation(r: NginxRequest): string {
  return ngxAnalysis(r).operation;
}

export function ngxDeprecated(r: NginxRequest): string {
  return ngxAnalysis(r).deprecated;
}

export function ngxTarget(r: NginxRequest): string {
  return ngxAnalysis(r).target;
}

/** `1` for an API call (the usage log's condition), empty otherwise. */
export function ngxLog(r: NginxRequest): string {
  const a = ngxAnalysis(r);
  return a.api && a.version ? '1' : '';
}

/** `read` for safe methods, `write` for the rest: the role the key check asks for. */
export function ngxRole(r: NginxRequest): string {
  return r.method === 'GET' || r.method === 'HEAD' || r.method === 'OPTIONS' ? 'read' : 'write';
}

/** The credential as the rate limit and the key cache know it: its SHA-256, or the address when there is none. */
export function ngxCredential(r: NginxRequest): string {
  const c = r.headersIn.Authorization || r.headersIn['X-API-Key'] || '';
  if (!c) return 'addr:' + (r.variables.remote_addr || '');
  return require('crypto').createHash('sha256').update(c).digest('base64url');
}

export function ngxHeader(r: NginxRequest, name: string): string {
  return ngxAnalysis(r).headers[name] || '';
}

export function ngxDeprecation(r: NginxRequest): string {
  return ngxHeader(r, 'Deprecation');
}
export function ngxSunset(r: NginxRequest): string {
  return ngxHeader(r, 'Sunset');
}
export function ngxLink(r: NginxRequest): string {
  return ngxHeader(r, 'Link');
}
export function ngxWarning(r: NginxRequest): string {
  return ngxHeader(r, 'Warning');
}
export function ngxVary(r: NginxRequest): string {
  return ngxHeader(r, 'Vary');
}

/** Send a problem as the gateway's `sendProblem` does: the same body, `requestId` from nginx's `$request_id`. */
export function ngxSend(r: NginxRequest, p: NjsProblem, withHeaders: boolean): void {
  const a = ngxAnalysis(r);
  // After negotiation by Accept, the gateway's problems name the path with the version in it, as nginx forwards it.
  const target = a.target;
  const body: Record<string, unknown> = {};
  for (const k in p.extensions) if (k !== 'errors') body[k] = p.extensions[k];
  body.type = '/problems/' + p.code.toLowerCase().replace(/_/g, '-');
  body.title = p.title;
  body.status = p.status;
  body.detail = p.detail;
  body.code = p.code;
  const instance = target.split('?')[0]!;
  if (instance.length <= 2000) body.instance = instance;
  if (p.extensions.errors) body.errors = p.extensions.errors;
  body.requestId = r.variables.request_id;
  if (a.api) for (const l in DATA.listHeaders) r.headersOut[l] = DATA.listHeaders[l];
  if (withHeaders) for (const h in a.headers) r.headersOut[h] = a.headers[h];
  for (const n in p.headers) r.headersOut[n] = p.headers[n];
  r.headersOut['Content-Type'] = 'application/problem+json; charset=utf-8';
  r.headersOut['Cache-Control'] = 'no-store';
  r.headersOut['X-Content-Type-Options'] = 'nosniff';
  r.return(p.status, JSON.stringify(body));
}

/** `js_content` of the refusals before the key check. */
export function ngxGate(r: NginxRequest): void {
  const a = ngxAnalysis(r);
  ngxSend(r, a.gate!, a.api);
}

/** `js_content` of the refusals after the key check. */
export function ngxLate(r: NginxRequest): void {
  const a = ngxAnalysis(r);
  ngxSend(r, a.late!, true);
}

/** The 401 or 403 the key check answered, its problem carried URI-encoded in `X-Versionary-Problem`. */
export function ngxAuthProblem(r: NginxRequest): void {
  const raw = r.variables.versionary_auth_problem || '';
  let p: NjsProblem;
  try {
    p = JSON.parse(decodeURIComponent(raw));
  } catch (e) {
    p = {
      status: 503,
      code: 'STORAGE_UNAVAILABLE',
      title: 'Service unavailable',
      detail: 'The credentials could not be checked. Retry later.',
      extensions: {},
      headers: {},
    };
  }
  ngxSend(r, p, false);
}

/** The 429 of `limit_req`. */
export function ngxLimited(r: NginxRequest): void {
  const limit = DATA.rate;
  const p = njsProblemOf(
    'RATE_LIMITED',
    'This client may make ' +
      limit.max +
      ' requests per ' +
      limit.windowSeconds +
      ' seconds; retry in ' +
      limit.retrySeconds +
      ' seconds.',
  );
  p.headers['Retry-After'] = String(limit.retrySeconds);
  ngxSend(r, p, false);
}

/** A 502 or 504 from the upstream. */
export function ngxUpstreamError(r: NginxRequest): void {
  const timedOut = r.variables.status === '504' || /timed out/.test(r.variables.upstream_status || '');
  ngxSend(
    r,
    timedOut
      ? njsProblemOf('UPSTREAM_TIMEOUT', 'The upstream did not answer in time.')
      : njsProblemOf('UPSTREAM_UNREACHABLE', 'The upstream could not be reached.'),
    false,
  );
}

export function njsProblemOf(code: string, detail: string): NjsProblem {
  const entry = DATA.problems[code] || [500, 'Internal error'];
  return { status: entry[0], title: entry[1], code: code, detail: detail, extensions: {}, headers: {} };
}
