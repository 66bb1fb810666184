import type { Clock } from '../clock/index.ts';
import type { VersionaryError } from '../errors/index.ts';
import { elementRemovedProblem } from '../rulebook/problems.ts';
import { formatIsoInstant, parseImfFixdate, parseIsoInstant } from '../time/index.ts';
import { deprecationHeaders, type DeprecationHeaderStyle, linkTarget, quoteHeaderText } from './deprecation-headers.ts';
import { replacementName, type ElementDeprecation } from './element-deprecation.ts';

/** The deprecation headers a response already carries (its version's or endpoint's), lower-case names. */
interface CurrentDeprecationHeaders {
  deprecation?: string;
  sunset?: string;
  link?: string;
  warning?: string;
}

interface ElementVerdictOptions {
  /** The elements the request uses (never empty). */
  used: readonly ElementDeprecation[];
  clock: Clock;
  style?: DeprecationHeaderStyle;
  /** The migration guide of an element without its own `migrationUrl`. */
  guideOf: (element: ElementDeprecation) => string;
  current: CurrentDeprecationHeaders;
}

/**
 * What a request that uses deprecated elements is told: deprecation headers merged with the
 * version's (earliest dates win; one `rel="deprecation"` link per element, titled with its name, as
 * Microsoft Graph does), or, past an element's sunset, the 400 that refuses it.
 */
export function elementVerdict(
  options: ElementVerdictOptions,
): { headers: Record<string, string> } | { removed: VersionaryError } {
  const { used, clock, current } = options;
  const now = clock.now();
  const past = used.filter((e) => now > e.sunsetAt);
  if (past.length > 0) {
    const removed = past.map((e) => ({
      element: e.element,
      version: e.version,
      sunsetAt: e.sunsetAt,
      replacement: replacementName(e),
      guide: options.guideOf(e),
      pointer: e.kind === 'parameter' ? `/query/${e.parameter}` : `/body/${e.field}`,
    }));
    return { removed: elementRemovedProblem(removed) };
  }
  const rfc = options.style === 'rfc';
  const own = used.map((e) => ({
    e,
    headers: deprecationHeaders({
      schedule: { version: e.version, deprecatedAt: e.deprecatedAt, sunsetAt: e.sunsetAt },
      clock,
      style: rfc ? 'rfc' : 'iso8601',
      migrationUrl: options.guideOf(e),
      subject: `${e.element} in ${e.version}`,
      ...(e.replacement ? { replacement: replacementName(e)! } : {}),
    }).headers,
  }));
  const candidates = [
    ...(current.deprecation !== undefined && current.sunset !== undefined
      ? [{ deprecatedAt: instant(current.deprecation), sunsetAt: instant(current.sunset), warning: current.warning }]
      : []),
    ...own.map(({ e, headers }) => ({ deprecatedAt: e.deprecatedAt, sunsetAt: e.sunsetAt, warning: headers.Warning })),
  ];
  const deprecatedAt = Math.min(...candidates.map((c) => c.deprecatedAt));
  const first = [...candidates].sort((a, b) => a.sunsetAt - b.sunsetAt)[0]!;
  const links = [
    ...(current.link ? [current.link] : []),
    ...own.map(
      ({ e }) =>
        `${linkTarget(options.guideOf(e), 'migrationUrl')}; rel="deprecation"; title=${quoteHeaderText(e.element)}`,
    ),
  ];
  const headers: Record<string, string> = {
    deprecation: rfc ? `@${Math.floor(deprecatedAt / 1000)}` : formatIsoInstant(deprecatedAt),
    sunset: own.find(({ e }) => e.sunsetAt === first.sunsetAt)?.headers.Sunset ?? current.sunset!,
    link: links.join(', '),
  };
  if (first.warning !== undefined) headers.warning = first.warning;
  return { headers };
}

function instant(value: string): number {
  const text = value.trim();
  if (text.startsWith('@')) return Number(text.slice(1)) * 1000;
  return parseIsoInstant(text) ?? parseImfFixdate(text) ?? Number.POSITIVE_INFINITY;
}
