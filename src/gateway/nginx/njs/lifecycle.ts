/**
 * The lifecycle as nginx computes it per request, in njs 0.7.9. These functions are rendered into
 * `versionary.js` by their own source text (`Function.prototype.toString`), so they are written in
 * the subset njs runs: `function` declarations, `var`, string concatenation, no destructuring,
 * spread, classes, `for…of`, `?.` or `??`, and no reference to anything outside this file but
 * their arguments. They take the rendered data and the clock as arguments, so Node runs them too,
 * and the tests hold them to the gateway's answers (`lifecycle.test.ts`).
 */

/** A schedule as rendered: a version's, an endpoint's or a query parameter's. */
export interface NjsSchedule {
  deprecatedAt: number;
  sunsetAt: number;
  removed: boolean;
  migrationUrl: string;
  /** What the Warning names: `API version v1`, `GET /echo in v2`, `GET /users?page in v2`. */
  subject: string;
  /** The replacement the Warning names, when there is one. */
  replacement: string;
}

/** A deprecated query parameter of one operation. */
export interface NjsParameter extends NjsSchedule {
  version: string;
  /** `GET /users`. */
  endpoint: string;
  /** The name as a client may spell it, lower-case. */
  name: string;
  /** The lifecycle's name of it: `GET /users?page`. */
  element: string;
  /** The 400's sentence once it is past its sunset. */
  removedSentence: string;
  removedPointer: string;
  removedDetail: string;
  replacementName: string;
}

/** A brownout: a version (or one endpoint of it) answering as removed for a while. */
export interface NjsBrownout {
  id: string;
  version: string;
  /** `GET /slow`, or empty for the whole version. */
  endpoint: string;
  startsAt: number;
  endsAt: number;
}

/** Everything the per-request code needs, rendered as JSON from the control plane's lifecycle. */
export interface NjsData {
  prefix: string;
  vendor: string;
  style: string;
  removedStatus: number;
  /** Version names, oldest first. */
  versions: string[];
  /** Each deprecated version's schedule. */
  schedules: Record<string, NjsSchedule>;
  /** Each version's replacement, when it has one. */
  replacements: Record<string, string>;
  /** Each version's documented operations: method, template and the template as a regular expression. */
  operations: Record<string, Array<{ method: string; path: string; pattern: string }>>;
  /** Endpoint deprecations, keyed `v2 GET /echo`. */
  endpoints: Record<string, NjsSchedule>;
  parameters: NjsParameter[];
  brownouts: NjsBrownout[];
  /** `API-Supported-Versions` and `API-Deprecated-Versions`. */
  listHeaders: Record<string, string>;
  /** Each version's migration guide. */
  guides: Record<string, string>;
  /** The status and title of each problem code nginx may answer, from the core's tables. */
  problems: Record<string, [number, string]>;
  /** The rate limit nginx applies, for the 429's words. */
  rate: { max: number; windowSeconds: number; retrySeconds: number };
}

/** A refusal: the status, the problem's fields beside type/title/status/instance, and headers. */
export interface NjsProblem {
  status: number;
  code: string;
  title: string;
  detail: string;
  extensions: Record<string, unknown>;
  headers: Record<string, string>;
}

/** What nginx needs to know of one request. */
export interface NjsAnalysis {
  /** Refused before the key check (ambiguous path, version errors, removal). */
  gate: NjsProblem | null;
  /** Refused after the key check (a brownout, a parameter past its sunset). */
  late: NjsProblem | null;
  version: string;
  /** The template below the version (`/users/{id}`), or the raw path. */
  operation: string;
  /** The path and query sent upstream (an `Accept`-negotiated call gets its version in the path). */
  target: string;
  headers: Record<string, string>;
  /** The deprecated elements used, comma-separated. */
  deprecated: string;
  /** Whether this is an API call (counted in the usage log). */
  api: boolean;
}

/** The ISO instant as the gateway writes it. */
export function njsIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `Date.prototype.toUTCString` is IMF-fixdate in V8 and njs alike. */
export function njsImf(ms: number): string {
  return new Date(ms).toUTCString();
}

/** A header quoted-string, as the core's `quoteHeaderText`. */
export function njsQuote(text: string): string {
  return '"' + text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&') + '"';
}

/** The `Link` value of the API's deprecation manifest, as the service's lifecycle sends it. */
export function njsManifestLink(data: NjsData): string {
  return '<' + data.prefix + '/deprecations>; rel="deprecation"; type="application/deprecations+json"';
}

/** The deprecation headers of one schedule at `now`, as the core's `deprecationHeaders`. */
export function njsHeaders(
  data: NjsData,
  s: NjsSchedule,
  now: number,
  successor: string,
  elementTitle: string,
): Record<string, string> {
  const rfc = data.style === 'rfc';
  const h: Record<string, string> = {};
  h.Deprecation = rfc ? '@' + Math.floor(s.deprecatedAt / 1000) : njsIso(s.deprecatedAt);
  h.Sunset = rfc ? njsImf(s.sunsetAt) : njsIso(s.sunsetAt);
  const links = [
    '<' + s.migrationUrl + '>; rel="deprecation"' + (elementTitle ? '; title=' + njsQuote(elementTitle) : ''),
  ];
  if (successor) links.push('<' + successor + '>; rel="successor-version"');
  if (rfc && !elementTitle) links.push('<' + data.prefix + '/versions>; rel="sunset"');
  h.Link = links.join(', ');
  const removed = s.removed || now > s.sunsetAt;
  const remaining = s.sunsetAt - now;
  if (!removed && remaining < 30 * 86400000) {
    const days = Math.floor(remaining / 86400000);
    const when = days === 0 ? 'less than 1 day' : days + ' day' + (days === 1 ? '' : 's');
    const text =
      s.subject +
      ' is deprecated and will be removed in ' +
      when +
      ', at ' +
      njsIso(s.sunsetAt) +
      '; please migrate to ' +
      (s.replacement ? s.replacement : 'a supported version') +
      ' (' +
      s.migrationUrl +
      ').';
    h.Warning = '299 - ' + njsQuote(text);
  }
  return h;
}

/** Why a target is refused, as the gateway's `ambiguityOf` says it, or empty when it has one meaning. */
export function njsAmbiguity(target: string): string {
  const origin = /^https?:\/\/[^/?#]*/i.exec(target);
  if (origin) target = target.slice(origin[0].length);
  if (target.charAt(0) !== '/') target = '/' + target;
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (!/[\\;%]|\/\/|\/\./.test(path)) return '';
  if (path.indexOf('\\') !== -1) return 'a backslash';
  if (path.indexOf('//') !== -1) return 'an empty segment ("//")';
  if (path.indexOf(';') !== -1) return 'a ";" (a matrix parameter)';
  for (let at = path.indexOf('%'); at !== -1; at = path.indexOf('%', at + 1)) {
    const hex = path.slice(at + 1, at + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return 'a "%" that is not followed by two hexadecimal digits';
    const code = parseInt(hex, 16);
    if (code === 0x2f || code === 0x5c) return 'an encoded "/" or "\\" (%2F, %5C)';
    if (code < 0x20 || code === 0x7f) return 'an encoded control character';
  }
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const plain = segments[i]!.replace(/%2e/gi, '.');
    if (plain === '.' || plain === '..') return 'a "." or ".." segment (plain or percent-encoded)';
  }
  return '';
}

/** The versions `Accept` names (vendor type or `version=`), `-1` for one that cannot be read, and whether it admits JSON. */
export function njsAccept(header: string, vendor: string): { versions: number[]; malformed: string[]; json: boolean } {
  const info = { versions: [] as number[], malformed: [] as string[], json: !header || header.trim() === '' };
  if (!header) return info;
  const vendorType = new RegExp(
    '^application/vnd\\.' + vendor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\.(.*)\\+json$',
  );
  const jsonLike = /^(application\/(json|problem\+json|[a-z0-9.+-]*\+json|\*)|\*\/\*)$/;
  const read = function (raw: string, source: string) {
    const m = /^v?([1-9][0-9]{0,5})$/i.exec(raw);
    if (m) {
      const n = Number(m[1]);
      if (info.versions.indexOf(n) === -1) info.versions.push(n);
    } else info.malformed.push(source);
  };
  const ranges = header.split(',').slice(0, 32);
  for (let i = 0; i < ranges.length; i++) {
    const parts = ranges[i]!.split(';');
    const type = parts[0]!.trim().toLowerCase();
    let q = '';
    const versions: string[] = [];
    for (let j = 1; j < parts.length; j++) {
      const kv = parts[j]!.split('=');
      const k = kv[0]!.trim().toLowerCase();
      const v = (kv[1] || '').trim().replace(/^"|"$/g, '');
      if (k === 'q' && q === '') q = v;
      if (k === 'version') versions.push(v);
    }
    if (q !== '' && Number(q) === 0) continue;
    const vendorMatch = vendorType.exec(type);
    if (vendorMatch || jsonLike.test(type)) {
      if (vendorMatch) read(vendorMatch[1] || '', type);
      for (let x = 0; x < versions.length; x++) read(versions[x]!, type + '; version=' + versions[x]);
      info.json = true;
    }
  }
  return info;
}

/** A problem of the gateway's, with the status and title its code has. */
export function njsProblem(
  data: NjsData,
  code: string,
  detail: string,
  extensions: Record<string, unknown>,
  headers: Record<string, string>,
): NjsProblem {
  const entry = data.problems[code] || [500, 'Internal error'];
  return { status: entry[0], title: entry[1], code: code, detail: detail, extensions: extensions, headers: headers };
}

/** The removal's problem, as the core's `evaluateVerdict` writes it. */
export function njsRemoved(data: NjsData, version: string, s: NjsSchedule, subject: string): NjsProblem {
  const replacement = data.replacements[version] || '';
  const move = replacement
    ? ' Use ' + replacement + ' instead; the migration guide is at ' + s.migrationUrl + '.'
    : ' The migration guide is at ' + s.migrationUrl + '.';
  return njsProblem(
    data,
    data.removedStatus === 404 ? 'NOT_FOUND' : 'VERSION_REMOVED',
    subject + ' was removed at its sunset date, ' + njsIso(s.sunsetAt) + '.' + move,
    { replacement: replacement || null, migrationGuide: s.migrationUrl, sunsetAt: njsIso(s.sunsetAt) },
    {},
  );
}

/** The version's and the endpoint's verdict: the removed one, else the nearest sunset, speaks. */
export function njsVerdict(
  data: NjsData,
  version: string,
  endpoint: string,
  now: number,
): { headers: Record<string, string>; removed: NjsProblem | null; sunsetAt: number } {
  const candidates: Array<{ s: NjsSchedule; removedSubject: string }> = [];
  const own = data.schedules[version];
  if (own) candidates.push({ s: own, removedSubject: version });
  const ep = data.endpoints[version + ' ' + endpoint];
  if (ep) candidates.push({ s: ep, removedSubject: ep.subject });
  if (candidates.length === 0) return { headers: {}, removed: null, sunsetAt: 0 };
  let chosen = candidates[0]!;
  let gone = null as null | { s: NjsSchedule; removedSubject: string };
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    if (!gone && (c.s.removed || now > c.s.sunsetAt)) gone = c;
    if (c.s.sunsetAt < chosen.s.sunsetAt) chosen = c;
  }
  if (gone) chosen = gone;
  const replacement = data.replacements[version] || '';
  const successor = replacement ? data.prefix + '/' + replacement + '/openapi.json' : '';
  const headers = njsHeaders(data, chosen.s, now, successor, '');
  // The deprecation manifest last, as the service's verdicts link it.
  if (headers.Link) headers.Link = headers.Link + ', ' + njsManifestLink(data);
  return {
    headers: headers,
    removed: gone ? njsRemoved(data, version, gone.s, gone.removedSubject) : null,
    sunsetAt: chosen.s.sunsetAt,
  };
}

/** The query's parameter names as loosely as any upstream reads them: pairs split at `&` and `;`, lower-case, cut at `[`. */
export function njsQueryNames(query: string): string[] {
  const names: string[] = [];
  const pairs = query.split(/[&;]/);
  for (let i = 0; i < pairs.length; i++) {
    const raw = pairs[i]!.split('=')[0]!.replace(/\+/g, ' ');
    let name = raw;
    try {
      name = decodeURIComponent(raw);
    } catch (e) {
      name = raw;
    }
    name = name.split('[')[0]!.trim().toLowerCase();
    if (name && names.indexOf(name) === -1) names.push(name);
  }
  return names;
}

/** The deprecated parameters a call uses: their headers merged with the verdict's, or the 400 past a sunset. */
export function njsParameters(
  data: NjsData,
  version: string,
  endpoint: string,
  query: string,
  now: number,
  current: Record<string, string>,
): { used: NjsParameter[]; headers: Record<string, string>; removed: NjsProblem | null } {
  const used: NjsParameter[] = [];
  const names = query ? njsQueryNames(query) : [];
  for (let i = 0; i < data.parameters.length; i++) {
    const p = data.parameters[i]!;
    if (p.version === version && p.endpoint === endpoint && names.indexOf(p.name) !== -1) used.push(p);
  }
  if (used.length === 0) return { used: used, headers: current, removed: null };
  const past = used.filter(function (e) {
    return now > e.sunsetAt;
  });
  if (past.length > 0)
    return {
      used: used,
      headers: current,
      removed: njsProblem(
        data,
        'ELEMENT_REMOVED',
        past
          .map(function (e) {
            return e.removedSentence;
          })
          .join(' '),
        {
          elements: past.map(function (e) {
            return {
              element: e.element,
              version: e.version,
              sunsetAt: njsIso(e.sunsetAt),
              replacement: e.replacementName || null,
              migrationGuide: e.migrationUrl,
            };
          }),
          errors: past.map(function (e) {
            return { pointer: e.removedPointer, detail: e.removedDetail };
          }),
        },
        {},
      ),
    };
  const rfc = data.style === 'rfc';
  const candidates: Array<{ deprecatedAt: number; sunsetAt: number; warning: string; sunset: string }> = [];
  if (current.Deprecation !== undefined)
    candidates.push({
      deprecatedAt: njsInstant(current.Deprecation),
      sunsetAt: njsInstant(current.Sunset || ''),
      warning: current.Warning || '',
      sunset: current.Sunset || '',
    });
  const links = current.Link ? [current.Link] : [];
  for (let j = 0; j < used.length; j++) {
    const own = njsHeaders(data, used[j]!, now, '', used[j]!.element);
    candidates.push({
      deprecatedAt: used[j]!.deprecatedAt,
      sunsetAt: used[j]!.sunsetAt,
      warning: own.Warning || '',
      sunset: own.Sunset!,
    });
    links.push(own.Link!);
  }
  let deprecatedAt = candidates[0]!.deprecatedAt;
  let first = candidates[0]!;
  for (let k = 1; k < candidates.length; k++) {
    if (candidates[k]!.deprecatedAt < deprecatedAt) deprecatedAt = candidates[k]!.deprecatedAt;
    if (candidates[k]!.sunsetAt < first.sunsetAt) first = candidates[k]!;
  }
  const headers: Record<string, string> = {
    Deprecation: rfc ? '@' + Math.floor(deprecatedAt / 1000) : njsIso(deprecatedAt),
    Sunset: first.sunset,
    Link: links.join(', '),
  };
  // The manifest after the elements' own links (a deprecated version's Link holds it already).
  const manifest = njsManifestLink(data);
  if (headers.Link!.indexOf(manifest) < 0) headers.Link = headers.Link + ', ' + manifest;
  if (first.warning) headers.Warning = first.warning;
  return { used: used, headers: headers, removed: null };
}

/** An instant as a Deprecation or Sunset header writes it. */
export function njsInstant(text: string): number {
  text = text.trim();
  if (text.charAt(0) === '@') return Number(text.slice(1)) * 1000;
  const ms = Date.parse(text);
  return isNaN(ms) ? Infinity : ms;
}

/** The brownout in force for a call, or null (rehearsals for one client are the control plane's; see docs). */
export function njsBrownout(data: NjsData, version: string, endpoint: string, now: number): NjsBrownout | null {
  for (let i = 0; i < data.brownouts.length; i++) {
    const b = data.brownouts[i]!;
    if (b.version === version && (b.endpoint === '' || b.endpoint === endpoint) && now >= b.startsAt && now < b.endsAt)
      return b;
  }
  return null;
}

export function njsBrownoutProblem(
  data: NjsData,
  version: string,
  b: NjsBrownout,
  sunsetAt: number,
  now: number,
): NjsProblem {
  const removalAt = sunsetAt ? njsIso(sunsetAt) : null;
  const what = b.endpoint ? b.endpoint + ' in ' + version : version;
  return njsProblem(
    data,
    data.removedStatus === 404 ? 'NOT_FOUND' : 'VERSION_REMOVED',
    what +
      ' is in a planned brownout until ' +
      njsIso(b.endsAt) +
      ': it answers as it will after its removal' +
      (removalAt ? ' on ' + removalAt : '') +
      '. Migrate before then.',
    {
      brownout: { id: b.id, startsAt: njsIso(b.startsAt), endsAt: njsIso(b.endsAt), rehearsal: false },
      removalAt: removalAt,
      migrationGuide: data.guides[version],
    },
    { 'Retry-After': String(Math.max(1, Math.ceil((b.endsAt - now) / 1000))) },
  );
}

/**
 * Everything nginx needs of one request, from its method, raw target (`$request_uri`), `Accept`
 * and the clock: the refusal before the key check (an ambiguous path, a version missing, unknown
 * or in conflict, a removal), the refusal after it (a brownout, a parameter past its sunset), the
 * version, the operation, the upstream target, the lifecycle headers and the deprecated elements.
 */
export function njsAnalyze(data: NjsData, method: string, target: string, accept: string, now: number): NjsAnalysis {
  const out: NjsAnalysis = {
    gate: null,
    late: null,
    version: '',
    operation: '',
    target: target,
    headers: {},
    deprecated: '',
    api: false,
  };
  const ambiguity = njsAmbiguity(target);
  if (ambiguity) {
    out.gate = njsProblem(
      data,
      'NOT_FOUND',
      'The request path holds ' + ambiguity + ', which servers read differently: send the canonical path.',
      {},
      {},
    );
    return out;
  }
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  if (path !== data.prefix && path.indexOf(data.prefix + '/') !== 0) return out;
  const rest = path.slice(data.prefix.length);
  // The lifecycle document, the migration guides and the versions' documents are the control plane's.
  if (/^\/(versions(\/.*)?|openapi\.json|v[0-9]+\/openapi\.json)$/.test(rest) || rest === '' || rest === '/')
    return out;
  out.api = true;
  const h: Record<string, string> = {};
  for (const name in data.listHeaders) h[name] = data.listHeaders[name]!;
  out.headers = h;
  const supported = { supportedVersions: data.versions };
  const named = data.versions.join(', ');
  const m = /^\/v([0-9]+)(\/.*)?$/.exec(rest);
  let pathVersion = m ? Number(m[1]) : 0;
  const info = njsAccept(accept, data.vendor);
  let problem = null as NjsProblem | null;
  if (m && !/^[1-9][0-9]{0,5}$/.test(m[1]!)) pathVersion = -1;
  if (info.malformed.length > 0)
    problem = njsProblem(
      data,
      'VERSION_MISSING',
      'Accept names a version that cannot be read (' +
        info.malformed.join(', ') +
        '). Supported versions: ' +
        named +
        '.',
      supported,
      {},
    );
  else if (info.versions.length > 1)
    problem = njsProblem(
      data,
      'VERSION_CONFLICT',
      'Accept names several versions (' +
        info.versions
          .map(function (v) {
            return 'v' + v;
          })
          .join(', ') +
        '); name one.',
      supported,
      {},
    );
  else if (pathVersion > 0 && info.versions.length === 1 && info.versions[0] !== pathVersion)
    problem = njsProblem(
      data,
      'VERSION_CONFLICT',
      'The path says v' + pathVersion + ' but Accept says v' + info.versions[0] + '.',
      supported,
      {},
    );
  else if (!info.json)
    problem = njsProblem(
      data,
      'NOT_ACCEPTABLE',
      'This API answers only with JSON: accept application/json or a versioned media type.',
      supported,
      {},
    );
  else if (!m && info.versions.length === 0) {
    problem = njsProblem(
      data,
      'VERSION_MISSING',
      'No API version given. Use /api/v<n>/... or Accept: application/vnd.' +
        data.vendor +
        '.v<n>+json. Supported versions: ' +
        named +
        '.',
      supported,
      {},
    );
    h.Vary = 'Accept';
  }
  const version = 'v' + (m ? m[1] : info.versions[0]);
  if (!problem && data.versions.indexOf(version) === -1)
    problem = njsProblem(
      data,
      'VERSION_UNKNOWN',
      version + ' is not a published version. Supported versions: ' + named + '.',
      supported,
      {},
    );
  if (problem) {
    out.gate = problem;
    return out;
  }
  if (!m) h.Vary = 'Accept';
  const below = m ? m[2] || '/' : rest || '/';
  if (!m) out.target = data.prefix + '/' + version + (rest === '/' ? '' : rest) + (q === -1 ? '' : target.slice(q));
  out.version = version;
  const ops = data.operations[version] || [];
  let template = '';
  const verb = method === 'HEAD' ? 'GET' : method;
  for (let i = 0; i < ops.length; i++) {
    if (new RegExp(ops[i]!.pattern).test(below) && (template === '' || ops[i]!.method === verb)) {
      template = ops[i]!.path;
      if (ops[i]!.method === verb) break;
    }
  }
  out.operation = template || below;
  const endpoint = verb + ' ' + (template || '/*');
  const verdict = njsVerdict(data, version, endpoint, now);
  for (const k in verdict.headers) h[k] = verdict.headers[k]!;
  if (verdict.removed) {
    for (const r in verdict.headers) verdict.removed.headers[r] = verdict.headers[r]!;
    out.gate = verdict.removed;
    return out;
  }
  const elements = njsParameters(data, version, endpoint, query, now, verdict.headers);
  for (const e in elements.headers) h[e] = elements.headers[e]!;
  out.deprecated = elements.used
    .map(function (p) {
      return p.element;
    })
    .join(',');
  if (elements.removed) {
    out.late = elements.removed;
    return out;
  }
  const b = below === '/' ? null : njsBrownout(data, version, verb + ' ' + (template || '/*'), now);
  if (b) out.late = njsBrownoutProblem(data, version, b, verdict.sunsetAt, now);
  return out;
}
