/**
 * The path of the portal's "What breaks for me" page for a pair of versions (and, for the owner,
 * a client): what notices and dashboards link to.
 */
export function breaksPath(pair: { from: string; to: string; client?: string }): string {
  const query = new URLSearchParams({ from: pair.from, to: pair.to, ...(pair.client ? { client: pair.client } : {}) });
  return `/portal/breaks?${query.toString()}`;
}
