// What a migration URL may hold, by character class (visible ASCII without space, `"`, `<`, `>` and
// `\`, which would break out of a `Link` header's `<…>` or which browsers read as `/`).
const visible = String.raw`\x21\x23-\x3b\x3d\x3f-\x5b\x5d-\x7e`;
const noSlash = String.raw`\x21\x23-\x2e\x30-\x3b\x3d\x3f-\x5b\x5d-\x7e`;
// An authority of a host (a name or a bracketed IPv6 address) and an optional port: no user info,
// which only serves to make `https://docs.example@evil.example` read as a trusted host.
const authority = String.raw`(?:[A-Za-z0-9._~%-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?`;

/**
 * The JSON Schema `pattern` of a migration URL: an absolute `http` or `https` URL, or a path on
 * this origin starting with `/` (not `//`, which a browser reads as another host). `javascript:`,
 * `data:` and relative references never match.
 */
export const migrationUrlPattern = String.raw`^(?:[Hh][Tt][Tt][Pp][Ss]?://${authority}(?:[/?#][${visible}]*)?|/(?:[${noSlash}][${visible}]*)?)$`;

/** The rule {@link migrationUrlPattern} states, as the end of a sentence naming the field. */
export const migrationUrlRule = 'must be an absolute http or https URL, or a path starting with / (not //)';

export const migrationUrlMaxLength = 2000;

const pattern = new RegExp(migrationUrlPattern, 'u');

/**
 * Whether `url` is a migration URL: it matches {@link migrationUrlPattern}, fits in
 * {@link migrationUrlMaxLength}, and an absolute one parses as a URL (a port past 65535 does not).
 * The one check behind the config file, the management API, the CLI and the portal's links.
 */
export function isMigrationUrl(url: string): boolean {
  if (url.length > migrationUrlMaxLength || !pattern.test(url)) return false;
  return url.startsWith('/') || URL.canParse(url);
}

/** Why `url` is no migration URL, as a sentence naming `field`, or `undefined` when it is one. */
export function migrationUrlProblem(url: string, field: string): string | undefined {
  if (isMigrationUrl(url)) return undefined;
  const shown = url.length > 80 ? `${url.slice(0, 80)}…` : url;
  return `${field} ${migrationUrlRule} (at most ${migrationUrlMaxLength} characters); got ${JSON.stringify(shown)}.`;
}
