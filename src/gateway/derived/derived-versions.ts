import { VersionaryError } from '../../core/errors/index.ts';
import {
  defineVersions,
  endpointSource,
  readVersionChanges,
  routablePath,
  type ApiVersion,
  type EndpointSource,
  type Instruction,
  type VersionBundle,
  type VersionChangeEntry,
} from '../../core/versions/index.ts';
import { toBundle } from '../../core/versions/bundle-types.ts';
import { versionDocumentPath } from '../../http/api-scope.ts';
import type { DerivedVersionRoute } from '../../http/forward-options.ts';
import type { GatewayVersion } from '../../kernel/config/gateway-settings.ts';
import { createMemberWalk } from './declared-members.ts';
import { derivedDocument } from './derived-document.ts';
import { createOldParameterCheck, createOldRequestCheck } from './old-requests.ts';
import { rootDocumentFacts } from './root-document.ts';

type Derived = Extract<GatewayVersion, { derivedFrom: string }>;

/**
 * The versions the gateway serves from a newer one (`derivedFrom`), added to the bundle: each
 * chain down from a version with an upstream is derived by `defineVersions` with the change
 * files' changes, and each derived version gets its document and route. Problems go to `errors`.
 */
export function addDerivedVersions(options: {
  versions: readonly GatewayVersion[];
  bundle: VersionBundle;
  prefix: string;
  documents: Record<string, Record<string, unknown>>;
  /** Each derived version's change file, as read (JSON, YAML or a module's export), or undefined when unreadable. */
  changeFiles: Record<string, { path: string; data: unknown } | undefined>;
  errors: string[];
}): { bundle: VersionBundle; routes: Record<string, DerivedVersionRoute> } {
  const { versions, errors } = options;
  const byName = new Map(versions.map((v) => [v.name, v]));
  const derived = versions.filter((v): v is Derived => 'derivedFrom' in v);
  if (derived.length === 0) return { bundle: options.bundle, routes: {} };
  // By the version that introduced them: the changes as read, with the file and version that list them.
  const changesOf = new Map<string, ListedChanges>();
  for (const version of derived) {
    const at = `gateway.versions.${version.name}`;
    const from = byName.get(version.derivedFrom);
    if (!from) errors.push(`${at}.derivedFrom: names ${version.derivedFrom}, which the gateway section does not list`);
    else if (Number(from.name.slice(1)) <= Number(version.name.slice(1)))
      errors.push(`${at}.derivedFrom: ${version.derivedFrom} must be newer than ${version.name}`);
    const file = options.changeFiles[version.name];
    if (!file) continue;
    const { changes, problems } = readVersionChanges(file.data);
    errors.push(...problems.map((p) => `${at}.changes: ${file.path}${p.startsWith('[') ? '' : ': '}${p}`));
    for (const entry of changes)
      if (entry.version !== version.derivedFrom)
        errors.push(
          `${at}.changes: ${file.path}[${entry.index}].version: is ${entry.version}, but ${version.name} is derived from ${version.derivedFrom}: list the changes ${version.derivedFrom} introduced`,
        );
    // The changes a version introduced are undone to give the version derived from it.
    changesOf.set(version.derivedFrom, { derived: version.name, path: file.path, entries: changes });
  }
  if (errors.length > 0) return { bundle: options.bundle, routes: {} };
  const groups = chainsOf(derived, byName, errors);
  const added: ApiVersion[] = [];
  const routes: Record<string, DerivedVersionRoute> = {};
  for (const chain of groups) {
    const root = options.bundle.get(chain[chain.length - 1]!)!;
    // Left out (a 404, never forwarded): an upstream's own `/openapi.json` (the gateway serves the
    // documents) and a template the library cannot route (`/jobs/{id}:cancel`).
    const routable = root.operations.filter((op) => op.path !== versionDocumentPath && routablePath.test(op.path));
    let group: VersionBundle;
    try {
      group = defineVersions({
        head: { schemas: root.schemas, operations: routable },
        versions: chain.map((name) => ({ name, changes: changesOf.get(name)?.entries.map((e) => e.change) ?? [] })),
      });
    } catch (error) {
      const list = (error as VersionaryError).errors ?? [{ detail: (error as Error).message }];
      errors.push(...list.map((e) => placed(e, { chain, changesOf, root: root.name })));
      continue;
    }
    const rootGroup = group.get(root.name)!;
    const rootBase = `${options.prefix}/${root.name}`;
    const rootDocument = options.documents[root.name] ?? {};
    const facts = rootDocumentFacts(rootDocument, rootBase);
    for (const self of group.versions.slice(0, -1)) {
      const endpoints = endpointsOf(group.versions, self);
      added.push({ ...self, ...removedOf(endpoints) });
      const walk = createMemberWalk(self.schemas);
      options.documents[self.name] = derivedDocument({ root: rootDocument, rootBase, version: self, endpoints });
      routes[self.name] = {
        root: rootGroup,
        self,
        plan: group.migrations,
        endpoints,
        rootBase,
        ...facts,
        checkRequest: createOldRequestCheck(self, walk),
        checkParameters: createOldParameterCheck(self),
        dropUndeclared: (name, body) => walk(name, body, ({ parent, key }) => delete parent[key]),
      };
    }
  }
  return { bundle: withVersions(options.bundle, added), routes };
}

/** By `self`'s operation id, the root route that serves it and the transport changes on the way. */
function endpointsOf(line: ApiVersion[], self: ApiVersion): Map<string, EndpointSource> {
  const to = line.length - 1;
  return new Map(
    self.operations.map((op) => [op.id, endpointSource(line, { from: self.index, to, route: op })] as const),
  );
}

/** The operations no root route serves (a newer version removed them), by id: the version that removed each. */
function removedOf(endpoints: Map<string, EndpointSource>): Pick<ApiVersion, 'removed'> {
  const removed: Record<string, string> = {};
  for (const [id, source] of endpoints) if (source.removedIn !== undefined) removed[id] = source.removedIn;
  return Object.keys(removed).length > 0 ? { removed } : {};
}

/** A change file's changes, for the version that introduced them; `derived` is the version whose file lists them. */
interface ListedChanges {
  derived: string;
  path: string;
  entries: VersionChangeEntry[];
}

/** A problem of `defineVersions` told at its place in the change file: `changes-v2.json[0].instructions[2] (field-added User.email)`. */
function placed(
  problem: { pointer?: string | undefined; detail: string },
  at: { chain: string[]; changesOf: Map<string, ListedChanges>; root: string },
): string {
  const match = /^\/versions\/(\d+)(?:\/changes\/(\d+)\/instructions\/(\d+))?$/.exec(problem.pointer ?? '');
  const version = match ? at.chain[Number(match[1])] : undefined;
  // A problem of a version's own schemas comes from the changes of the version it is derived from.
  const listed = version === undefined ? undefined : (at.changesOf.get(version) ?? derivedFrom(at, version));
  if (!match || !listed) return `gateway.versions (derived from ${at.root}): ${problem.detail}`;
  // The detail starts with the version the change belongs to: the file's place says it already.
  const detail = problem.detail.replace(/^v[1-9][0-9]*: /, '');
  const where = `gateway.versions.${listed.derived}.changes: ${listed.path}`;
  if (match[2] === undefined) return `${where}: ${detail}`;
  const entry = listed.entries[Number(match[2])];
  const step = entry?.change.instructions[Number(match[3])];
  if (!entry || !step) return `${where}: ${detail}`;
  return `${where}[${entry.index}].instructions[${match[3]}] (${instructionWords(step)}): ${detail}`;
}

/** The changes whose undoing gave `version`: those of the version it is derived from. */
function derivedFrom(at: { chain: string[]; changesOf: Map<string, ListedChanges> }, version: string) {
  const newer = at.chain[at.chain.indexOf(version) + 1];
  return newer === undefined ? undefined : at.changesOf.get(newer);
}

/** An instruction in a few words: its op and what it names (`field-added User.email`). */
function instructionWords(step: Instruction): string {
  if (!('schema' in step)) return step.method ? `${step.op} ${step.method} ${step.path}` : `${step.op} ${step.name}`;
  return `${step.op} ${step.schema}${'field' in step && step.field !== undefined ? `.${step.field}` : ''}`;
}

/** Each chain of derived versions, oldest first, ending with the version that has the upstream. */
function chainsOf(derived: Derived[], byName: Map<string, GatewayVersion>, errors: string[]): string[][] {
  const rootOf = (name: string): string => {
    const v = byName.get(name)!;
    return 'derivedFrom' in v ? rootOf(v.derivedFrom) : name;
  };
  const chains = new Map<string, string[]>();
  for (const v of derived) chains.set(rootOf(v.name), [...(chains.get(rootOf(v.name)) ?? []), v.name]);
  const result: string[][] = [];
  for (const [root, names] of chains) {
    const chain = [...names.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))), root];
    // defineVersions derives a line: each version from the next one, none skipped.
    const broken = chain.slice(0, -1).find((name, i) => (byName.get(name) as Derived).derivedFrom !== chain[i + 1]);
    if (broken)
      errors.push(
        `gateway.versions.${broken}.derivedFrom: the versions derived from ${root} must form one line (v1 from v2 from v3); ${broken} skips a version derived in between`,
      );
    else result.push(chain);
  }
  return result;
}

function withVersions(bundle: VersionBundle, added: ApiVersion[]): VersionBundle {
  if (added.length === 0) return bundle;
  const sorted = [...bundle.versions, ...added].sort((a, b) => a.number - b.number);
  const versions = sorted.map((v, index) => ({ ...v, index }));
  return toBundle(bundle.head, versions, bundle.migrations);
}
