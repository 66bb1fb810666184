import { emit, type DiffContext, type EmitOptions, type Side } from './diff-context.ts';
import { canonicalJson } from './equivalence.ts';
import { joinPointer, nodeAt, type DocNode } from './json-pointer.ts';
import type { OperationEntry } from './openapi-document.ts';
import type { RuleId } from './rules.ts';
import type { Change } from './types.ts';
import { isObjectLike } from './schema-model.ts';

/** One alternative of a security requirement list: every scheme in it must be satisfied. */
interface Alternative {
  /** Scheme identity (how credentials are sent) to its name and required scopes. */
  schemes: Map<string, { name: string; scopes: Set<string> }>;
  key: string;
}

interface Effective {
  alternatives: Alternative[];
  /** Anyone may call: no requirement, an empty list, or an empty `{}` alternative. */
  anonymous: boolean;
  /** Where the list is written; inherited lists are the document's `security`. */
  at: DocNode;
  inherited: boolean;
}

type Report = (id: RuleId, message: string, values?: { oldValue?: unknown; newValue?: unknown }) => void;

/** Most lists are shared by every operation through the global `security`: report those once. */
const globalFindings = new WeakMap<DiffContext, Map<string, { change: Change; operations: string[] }>>();
const MAX_LISTED_OPERATIONS = 10;

/**
 * Compare the security an operation demands (its own `security`, else the document's): a
 * requirement where anonymous calls were accepted, a way to authenticate dropped or a scope
 * added breaks clients; the reverse edits are compatible. Schemes are matched by how the
 * credentials are sent, so renaming a scheme is no change.
 */
export function diffSecurity(ctx: DiffContext, ops: { old: OperationEntry; new: OperationEntry }): void {
  const o = effective(ctx.old, ops.old);
  const n = effective(ctx.new, ops.new);
  if (o.anonymous === n.anonymous && canonical(o) === canonical(n)) return;
  const label = `${ops.new.method} ${ops.new.path}`;
  const report: Report = (id, message, values = {}) => {
    const shared = o.inherited && n.inherited;
    // A global list deleted outright is located where it was, in the old document.
    const old = shared && n.at.pointer !== '/security';
    const scope = shared ? 'All operations that use the global security' : label;
    const options: EmitOptions = { at: old ? o.at : n.at, side: old ? 'old' : 'new', message: `${scope} ${message}` };
    if (shared) emitShared(ctx, { id, options: { ...options, ...values }, label });
    else emit(ctx, id, { ...options, ...values });
  };
  const oldAuth = o.alternatives.filter((a) => a.schemes.size > 0);
  const newAuth = n.alternatives.filter((a) => a.schemes.size > 0);
  if (o.anonymous && !n.anonymous)
    report(
      'security-requirement-added',
      `now require credentials (${describeList(newAuth)}); anonymous calls are refused.`,
      { newValue: describeList(newAuth) },
    );
  if (!o.anonymous && n.anonymous)
    report('security-requirement-removed', 'no longer require credentials.', { oldValue: describeList(oldAuth) });
  const newByKey = new Map(newAuth.map((a) => [a.key, a]));
  const oldKeys = new Set(oldAuth.map((a) => a.key));
  for (const alt of oldAuth) {
    const match = newByKey.get(alt.key);
    if (match !== undefined) {
      diffScopes(alt, match, report);
      continue;
    }
    // A new alternative that asks for a subset of what this one sent still lets its clients in.
    if (n.anonymous || newAuth.some((b) => covers(alt, b))) continue;
    report('security-alternative-removed', `no longer accept ${describe(alt)}.`, { oldValue: describe(alt) });
  }
  if (oldAuth.length === 0) return;
  for (const alt of newAuth) {
    if (!oldKeys.has(alt.key))
      report('security-alternative-added', `also accept ${describe(alt)}.`, { newValue: describe(alt) });
  }
}

/**
 * Report security schemes removed from `components.securitySchemes` (a rename that keeps the
 * same credential is no removal). Operations that used one are reported by their requirements;
 * the removal itself breaks no client.
 */
export function diffSecuritySchemes(ctx: DiffContext): void {
  const oldSchemes = schemesOf(ctx.old);
  const newSchemes = schemesOf(ctx.new);
  const kept = new Set(Object.entries(newSchemes).map(([name, raw]) => identityOf(name, resolve(ctx.new, name, raw))));
  for (const [name, raw] of Object.entries(oldSchemes)) {
    // Renamed is not removed: the same credential is still described under another name.
    if (Object.hasOwn(newSchemes, name) || kept.has(identityOf(name, resolve(ctx.old, name, raw)))) continue;
    emit(ctx, 'security-scheme-removed', {
      at: { uri: ctx.old.set.root, pointer: joinPointer('/components/securitySchemes', name) },
      side: 'old',
      oldValue: name,
      message: `The security scheme \`${name}\` was removed from the components.`,
    });
  }
  for (const [name, raw] of Object.entries(newSchemes)) {
    if (!Object.hasOwn(oldSchemes, name)) continue;
    const was = isDeprecated(resolve(ctx.old, name, oldSchemes[name]));
    const now = isDeprecated(resolve(ctx.new, name, raw));
    if (was === now) continue;
    emit(ctx, now ? 'security-scheme-deprecated' : 'security-scheme-reactivated', {
      at: { uri: ctx.new.set.root, pointer: joinPointer('/components/securitySchemes', name) },
      oldValue: was,
      newValue: now,
      message: `The security scheme \`${name}\` ${now ? 'was deprecated' : 'is no longer deprecated'}.`,
    });
  }
}

const isDeprecated = (scheme: unknown): boolean => isObjectLike(scheme) && scheme.deprecated === true;

function diffScopes(o: Alternative, n: Alternative, report: Report): void {
  for (const [identity, ns] of n.schemes) {
    const os = o.schemes.get(identity);
    if (os === undefined) continue;
    const added = [...ns.scopes].filter((s) => !os.scopes.has(s)).sort();
    const removed = [...os.scopes].filter((s) => !ns.scopes.has(s)).sort();
    if (added.length > 0)
      report(
        'security-scope-added',
        `now require the scope${added.length > 1 ? 's' : ''} ${added.join(', ')} of \`${ns.name}\`; tokens without ${added.length > 1 ? 'them' : 'it'} are refused.`,
        { newValue: added },
      );
    if (removed.length > 0)
      report(
        'security-scope-removed',
        `no longer require the scope${removed.length > 1 ? 's' : ''} ${removed.join(', ')} of \`${ns.name}\`.`,
        { oldValue: removed },
      );
  }
}

/** `b` lets in every client that satisfies `a`: its schemes and scopes are a subset of `a`'s. */
function covers(a: Alternative, b: Alternative): boolean {
  for (const [identity, scheme] of b.schemes) {
    const mine = a.schemes.get(identity);
    if (mine === undefined || [...scheme.scopes].some((s) => !mine.scopes.has(s))) return false;
  }
  return true;
}

function effective(side: Side, entry: OperationEntry): Effective {
  const own = (entry.operation.value as Record<string, unknown>).security;
  const doc = side.set.documents.get(side.set.root);
  const inherited = !Array.isArray(own);
  const list = inherited ? (isObjectLike(doc) ? doc.security : undefined) : own;
  const at: DocNode = inherited
    ? Array.isArray(list)
      ? { uri: side.set.root, pointer: '/security', value: list }
      : entry.operation
    : nodeAt(entry.operation, list, 'security');
  const schemes = schemesOf(side);
  const alternatives = (Array.isArray(list) ? list : [])
    .filter(isObjectLike)
    .map((req) => alternativeOf(req, { schemes, side }));
  const anonymous = alternatives.length === 0 || alternatives.some((a) => a.schemes.size === 0);
  return { alternatives, anonymous, at, inherited };
}

function alternativeOf(
  req: Record<string, unknown>,
  from: { schemes: Record<string, unknown>; side: Side },
): Alternative {
  const map = new Map<string, { name: string; scopes: Set<string> }>();
  for (const [name, scopes] of Object.entries(req)) {
    const raw = from.schemes[name];
    const def = raw === undefined ? undefined : resolve(from.side, name, raw);
    const list = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
    map.set(identityOf(name, def), { name, scopes: new Set(list) });
  }
  return { schemes: map, key: [...map.keys()].sort().join(' + ') };
}

/** How a client sends the credential: what must stay the same for its requests to pass. */
function identityOf(name: string, def: unknown): string {
  if (!isObjectLike(def) || typeof def.type !== 'string') return `name:${name}`;
  switch (def.type) {
    case 'apiKey':
      return `apiKey ${String(def.in)} ${def.in === 'header' ? String(def.name).toLowerCase() : String(def.name)}`;
    case 'http':
      return `http ${String(def.scheme).toLowerCase()}`;
    case 'oauth2':
      return `oauth2 ${isObjectLike(def.flows) ? Object.keys(def.flows).sort().join(',') : ''}`;
    case 'openIdConnect':
      return `openIdConnect ${String(def.openIdConnectUrl)}`;
    default:
      return def.type;
  }
}

function resolve(side: Side, name: string, raw: unknown): unknown {
  const pointer = joinPointer('/components/securitySchemes', name);
  return side.resolver.resolve({ uri: side.set.root, pointer, value: raw }).value;
}

function schemesOf(side: Side): Record<string, unknown> {
  const doc = side.set.documents.get(side.set.root);
  const components = isObjectLike(doc) ? doc.components : undefined;
  const schemes = isObjectLike(components) ? components.securitySchemes : undefined;
  return isObjectLike(schemes) ? schemes : {};
}

function canonical(e: Effective): string {
  return canonicalJson(
    e.alternatives
      .map((a) => [...a.schemes].map(([k, v]) => [k, [...v.scopes].sort()]).sort())
      .map((a) => canonicalJson(a))
      .sort(),
  );
}

function describe(alt: Alternative): string {
  return [...alt.schemes.values()]
    .map((s) => `\`${s.name}\`${s.scopes.size > 0 ? ` (${[...s.scopes].sort().join(', ')})` : ''}`)
    .join(' with ');
}

function describeList(alts: Alternative[]): string {
  return alts.map(describe).join(' or ') || 'none';
}

/** Report a change of the global list once, naming every operation it reaches. */
function emitShared(ctx: DiffContext, f: { id: RuleId; options: EmitOptions; label: string }): void {
  const { id, options, label } = f;
  let seen = globalFindings.get(ctx);
  if (seen === undefined) globalFindings.set(ctx, (seen = new Map()));
  const key = `${id}|${options.message}`;
  let found = seen.get(key);
  if (found === undefined) {
    emit(ctx, id, options);
    found = { change: ctx.changes[ctx.changes.length - 1] as Change, operations: [] };
    seen.set(key, found);
  }
  found.operations.push(label);
  found.change.location.operations = found.operations.slice(0, MAX_LISTED_OPERATIONS);
  found.change.location.operationCount = found.operations.length;
}
