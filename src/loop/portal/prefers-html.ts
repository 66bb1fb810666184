/**
 * Whether `Accept` gives `text/html` a higher quality than JSON, the most specific range deciding:
 * a browser gets a page, while `*\/*` or no header keeps the problem JSON.
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

type Range = ReturnType<typeof toRange>;

function toRange(text: string) {
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
