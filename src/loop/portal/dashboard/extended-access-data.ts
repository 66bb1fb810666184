import type { ExtendedAccessGrant, ExtendedAccessRequest, ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import { subjectCap } from '../../lifecycle/extended-access/check-grant.ts';
import type { ConsumerWarning } from './consumer-data.ts';
import type { DashboardOptions } from './options.ts';

/** A deprecated subject this client calls that can still be extended: it has a cap, and no grant or pending request. */
interface AskableSubject {
  subject: ExtendedAccessSubject;
  /** The form's value for it: `version:v1`, `endpoint:v1 GET /users`. */
  key: string;
  name: string;
  sunsetAt: number | undefined;
  cap: number;
}

/** What the extended-access section shows: to a consumer its own, to the owner everyone's. */
export interface ExtendedAccessData {
  askable: AskableSubject[];
  requests: ExtendedAccessRequest[];
  extendedAccess: ExtendedAccessGrant[];
}

/** The form value naming a subject; parsed back by {@link askableOf}. */
function subjectKey(s: ExtendedAccessSubject): string {
  if (s.kind === 'endpoint') return `endpoint:${s.version} ${s.method} ${s.path}`;
  if (s.kind === 'element') return `element:${s.version} ${s.element}`;
  return `version:${s.version}`;
}

/** How a page names a subject: `v1`, `GET /users in v1`, `User.nickname in v1`. */
export function subjectName(s: ExtendedAccessSubject): string {
  if (s.kind === 'endpoint') return `${s.method} ${s.path} in ${s.version}`;
  if (s.kind === 'element') return `${s.element} in ${s.version}`;
  return s.version;
}

/** The cap (`extendedAccessUntil`) of a subject, or undefined when none can be granted. */
export function capOf(options: Pick<DashboardOptions, 'runtime'>, s: ExtendedAccessSubject): number | undefined {
  return subjectCap(options.runtime, s);
}

/** A client's extended access: what it may still ask for (from its warnings), its requests and its grants of extended access. */
export async function gatherExtendedAccess(
  options: DashboardOptions,
  o: { clientId: string; warnings: ConsumerWarning[] },
): Promise<ExtendedAccessData> {
  const [requests, extendedAccess] = await Promise.all([
    options.storage.extendedAccessRequests.list({ clientId: o.clientId }),
    options.storage.extendedAccess.list({ clientId: o.clientId }),
  ]);
  const taken = new Set([
    ...extendedAccess.map((e) => subjectKey(e.subject)),
    ...requests.filter((r) => r.status === 'pending').map((r) => subjectKey(r.subject)),
  ]);
  const askable: AskableSubject[] = [];
  for (const w of o.warnings) {
    const endpoint = w.subject === w.version ? undefined : w.endpoints[0]?.endpoint;
    const [method, path] = endpoint ? endpoint.split(' ') : [];
    const subject: ExtendedAccessSubject =
      method && path ? { kind: 'endpoint', version: w.version, method, path } : { kind: 'version', version: w.version };
    const cap = capOf(options, subject);
    const key = subjectKey(subject);
    if (cap === undefined || cap <= options.clock.now() || taken.has(key)) continue;
    askable.push({ subject, key, name: subjectName(subject), sunsetAt: w.sunsetAt, cap });
  }
  return { askable, requests: requests.reverse(), extendedAccess };
}

/** Every pending request and every grant in force, for the owner. */
export async function gatherAllExtendedAccess(
  options: DashboardOptions,
): Promise<Pick<ExtendedAccessData, 'requests' | 'extendedAccess'>> {
  const [requests, extendedAccess] = await Promise.all([
    options.storage.extendedAccessRequests.list({ status: 'pending' }),
    options.storage.extendedAccess.list(),
  ]);
  return { requests, extendedAccess };
}
