import { DAY_MS } from '../../../core/lifecycle/index.ts';
import { buildChangelog, startOfDay, type Changelog } from '../../../core/portal/index.ts';
import { toChangelogEndpoint } from '../changelog-endpoint.ts';
import { describeVersions, toChangelogVersions } from '../../lifecycle/version-info.ts';
import { lookbackDays } from './consumer-data.ts';
import type { DashboardOptions } from './options.ts';

/**
 * A client's own changelog: events about the versions it called in the lookback (and the release
 * of their replacements), and endpoint deprecations only for endpoints it called.
 */
export async function personalChangelog(options: DashboardOptions, clientId: string): Promise<Changelog> {
  const now = options.clock.now();
  await options.flushUsage();
  const rows = await options.storage.usage.byClient({ since: startOfDay(now) - (lookbackDays - 1) * DAY_MS, clientId });
  const calledVersions = new Set(rows.map((r) => r.version));
  const calledEndpoints = new Set(rows.map((r) => `${r.version} ${r.endpoint}`));
  const versions = describeVersions(options);
  const wholeVersion = (name: string) =>
    calledVersions.has(name) && versions.find((v) => v.name === name)?.status !== 'not_deprecated';
  const replacements = new Set(
    versions.filter((v) => wholeVersion(v.name) && v.replacement).map((v) => v.replacement!),
  );
  const endpoints = options.runtime
    .endpointDeprecations()
    .filter((e) => calledEndpoints.has(`${e.version} ${e.method} ${e.path}`))
    .map((e) => toChangelogEndpoint(e));
  const full = buildChangelog({
    versions: toChangelogVersions(
      versions.filter((v) => wholeVersion(v.name) || replacements.has(v.name)),
      options.bundle,
    ),
    endpoints,
    now,
  });
  // A replacement's own lifecycle is not this client's business: only its release.
  const entries = full.entries.filter(
    (e) =>
      e.endpoint !== undefined || wholeVersion(e.version) || (replacements.has(e.version) && e.kind === 'released'),
  );
  const upcoming = full.upcoming.filter((u) => u.endpoint !== undefined || wholeVersion(u.version));
  return { entries, upcoming };
}
