import { escapeRegExp } from '../text/index.ts';

/** What the `Accept` header says about the version and about JSON. */
export interface AcceptInfo {
  /** Versions named in the header (by vendor type or `version` parameter), deduplicated. */
  versions: number[];
  /** A version parameter or vendor type that could not be read, such as `version=abc`. */
  malformed: string[];
  /** Whether any acceptable media range admits a JSON response. */
  acceptsJson: boolean;
}

/** Options for {@link parseAccept}. */
export interface ParseAcceptOptions {
  /** Vendor tree name: `versionary` reads `application/vnd.versionary.v2+json`. */
  vendor: string;
}

const jsonLike = /^(application\/(json|problem\+json|[a-z0-9.+-]*\+json|\*)|\*\/\*)$/;

/**
 * Read the version and JSON acceptability out of an `Accept` header. Media ranges with `q=0` are
 * refused ranges and are skipped. A missing header accepts anything.
 *
 * @example
 * ```ts
 * parseAccept('application/vnd.versionary.v2+json', { vendor: 'versionary' }).versions // [2]
 * parseAccept('application/json; version=1', { vendor: 'versionary' }).versions // [1]
 * ```
 */
export function parseAccept(header: string | undefined, options: ParseAcceptOptions): AcceptInfo {
  const info: AcceptInfo = { versions: [], malformed: [], acceptsJson: header === undefined || header.trim() === '' };
  if (!header) return info;
  const vendorType = new RegExp(`^application/vnd\\.${escapeRegExp(options.vendor)}\\.(.*)\\+json$`);
  for (const range of header.split(',').slice(0, 32)) {
    const [rawType = '', ...params] = range.split(';');
    const type = rawType.trim().toLowerCase();
    const parameters = params.map((p) => {
      const [k = '', v = ''] = p.split('=');
      return [k.trim().toLowerCase(), v.trim().replace(/^"|"$/g, '')] as const;
    });
    const q = parameters.find(([k]) => k === 'q')?.[1];
    if (q !== undefined && Number(q) === 0) continue;
    // Every version parameter counts: `version=2; version=1` names two versions, a conflict to
    // refuse rather than a choice to make quietly.
    const versionParams = parameters.filter(([k]) => k === 'version').map(([, v]) => v);
    const vendor = vendorType.exec(type);
    if (!vendor && !jsonLike.test(type)) continue;
    info.acceptsJson = true;
    if (vendor) read({ raw: vendor[1] ?? '', info, source: type });
    for (const version of versionParams) read({ raw: version, info, source: `${type}; version=${version}` });
  }
  info.versions = [...new Set(info.versions)];
  return info;
}

function read(options: { raw: string; info: AcceptInfo; source: string }): void {
  const match = /^v?([1-9][0-9]{0,5})$/i.exec(options.raw);
  if (match) options.info.versions.push(Number(match[1]));
  else options.info.malformed.push(options.source);
}
