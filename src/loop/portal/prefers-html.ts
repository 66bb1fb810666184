/**
 * Whether an `Accept` header prefers an HTML page to JSON: the quality it gives `text/html` is
 * above the one it gives JSON (`application/json` or `application/problem+json`). The most
 * specific range that matches a type sets its quality (`text/html` over `text/*` over `*\/*`).
 * So a browser (`text/html,…,*\/*;q=0.8`) gets a page, while `*\/*`, `application/json` or no
 * header at all keeps the problem JSON an API client reads.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').slice(0, 32).map(toRange);
  const html = qualityOf(ranges, 'text', 'html');
  return (
    html > 0 &&
    html > Math.max(qualityOf(ranges, 'application', 'json'), qualityOf(ranges, 'application', 'problem+json'))
  );
}

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function toRange(text: string): Range {
  const [media = '', ...params] = text.split(';');
  const [type = '', subtype = ''] = media.trim().toLowerCase().split('/');
  const q = params.map((p) => p.split('=')).find(([k]) => k?.trim().toLowerCase() === 'q')?.[1];
  const quality = q === undefined ? 1 : Number(q.trim());
  return { type, subtype, q: Number.isFinite(quality) ? Math.min(Math.max(quality, 0), 1) : 0 };
}

function qualityOf(ranges: Range[], type: string, subtype: string): number {
  const exact = ranges.filter((r) => r.type === type && r.subtype === subtype);
  const family = ranges.filter((r) => r.type === type && r.subtype === '*');
  const any = ranges.filter((r) => r.type === '*' && r.subtype === '*');
  const best = [exact, family, any].find((found) => found.length > 0);
  return best ? Math.max(...best.map((r) => r.q)) : 0;
}
