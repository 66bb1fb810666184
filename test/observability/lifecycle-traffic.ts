import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const iso = (at: number) => new Date(at).toISOString();

/** A started service whose v1 is deprecated (sunset in 30 days, closed to new clients after a day), with a clock to move. */
export interface LifecycleTraffic {
  service: StartedService;
  t0: number;
  /** Move the service's clock to `t0 + days`. */
  at(days: number): void;
  /** A client (`cl_…`) and a read key of its own. */
  client(name: string): Promise<{ id: string; key: string }>;
  call(key: string | undefined, path: string): Promise<Response>;
  /** The text of `GET /metrics`, read with the admin key. */
  scrape(): Promise<string>;
}

/** Start the service of {@link LifecycleTraffic}; `file` adds settings to its config file (a rate limit, …). */
export async function startLifecycleTraffic(file: Record<string, unknown> = {}): Promise<LifecycleTraffic> {
  const t0 = Date.now();
  let now = t0;
  const service = await startTestService({
    clock: { now: () => now },
    file: {
      ...file,
      versions: {
        v1: {
          deprecatedAt: iso(t0 - 200 * day),
          sunsetAt: iso(t0 + 30 * day),
          closedToNewClientsAt: iso(t0 + day),
          migrationUrl: 'https://docs.example.com/v1-to-v2',
        },
      },
    },
  });
  const admin = adminCaller(service);
  return {
    service,
    t0,
    at: (days) => void (now = t0 + days * day),
    async client(name) {
      const { id } = JSON.parse((await admin('POST', '/admin/v1/clients', { name, contacts: [] })).body) as {
        id: string;
      };
      const created = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: id });
      return { id, key: (JSON.parse(created.body) as { key: string }).key };
    },
    call: (key, path) =>
      fetch(`${service.base}${path}`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } }),
    scrape: async () => (await admin('GET', '/metrics')).body,
  };
}

/** The value of the sample `name{labels}` in a scrape, or `undefined` when it has none. */
export function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
