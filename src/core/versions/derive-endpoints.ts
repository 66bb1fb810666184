import { routablePath } from './check-definition.ts';
import type { EndpointInstruction } from './endpoint-instructions.ts';
import type { Instruction } from './instructions.ts';
import type { HttpMethod, JsonSchema, OperationSpec } from './types.ts';

type EndpointStep = EndpointInstruction | Extract<Instruction, { op: 'endpoint-added' }>;

/** Undo one endpoint instruction; what it names and the newer version lacks is a problem, never a no-op. */
export function deriveEndpoint(at: {
  step: EndpointStep;
  version: string;
  operations: OperationSpec[];
  fail: (text: string) => void;
}): OperationSpec[] {
  const { step, operations, fail } = at;
  const find = (method: HttpMethod, path: string) => operations.find((o) => o.method === method && o.path === path);
  const routed = (method: HttpMethod | undefined, path: string | undefined): OperationSpec | undefined => {
    const op = find(method!, path!);
    if (!op) fail(`${step.op} names ${method} ${path}, which the version does not route`);
    return op;
  };
  const replace = (op: OperationSpec, by: OperationSpec) => operations.map((o) => (o === op ? by : o));
  const refuse = (text: string) => {
    fail(text);
    return operations;
  };
  switch (step.op) {
    case 'endpoint-added': {
      const op = routed(step.method, step.path);
      return op ? operations.filter((o) => o !== op) : operations;
    }
    case 'endpoint-removed': {
      // Back in the older version: a copy of the operation that serves it, or one answered 410.
      const id = step.operationId ?? removedOperationId(step.method, step.path);
      if (find(step.method, step.path))
        return refuse(`endpoint-removed names ${step.method} ${step.path}, which the version still routes`);
      if (!routablePath.test(step.path)) fail(`endpoint-removed path "${step.path}" must be /segments and {params}`);
      if (operations.some((o) => o.id === id))
        fail(
          `endpoint-removed gives ${step.method} ${step.path} the operation id "${id}", which another operation has: set operationId`,
        );
      const route = { id, method: step.method, path: step.path };
      if (step.upstreamPath === undefined) {
        const description = `Removed in ${at.version}: the endpoint answers 410.`;
        const summary = step.summary ?? `${step.method} ${step.path} (removed in ${at.version})`;
        return [...operations, { ...route, summary, responses: { 410: { description } } }];
      }
      const method = step.upstreamMethod ?? step.method;
      const upstream = find(method, step.upstreamPath);
      if (!upstream)
        return refuse(
          `endpoint-removed upstreamPath names ${method} ${step.upstreamPath}, which the version does not route`,
        );
      if (!sameParameters(step.path, step.upstreamPath))
        fail(`endpoint-removed ${step.path} and its upstreamPath ${step.upstreamPath} must name the same parameters`);
      return [...operations, { ...upstream, ...route, summary: step.summary ?? upstream.summary }];
    }
    case 'endpoint-moved': {
      const op = routed(step.method, step.path);
      const method = step.previousMethod ?? step.method;
      if (!op) return operations;
      if (find(method, step.previousPath))
        return refuse(
          `endpoint-moved names ${method} ${step.previousPath} as the previous route, which the version routes already`,
        );
      if (!sameParameters(step.path, step.previousPath))
        fail(`endpoint-moved ${step.path} and its previousPath ${step.previousPath} must name the same parameters`);
      if (!routablePath.test(step.previousPath))
        fail(`endpoint-moved previousPath "${step.previousPath}" must be /segments and {params}`);
      return replace(op, { ...op, method, path: step.previousPath });
    }
    case 'status-changed': {
      const op = routed(step.method, step.path);
      if (!op) return operations;
      const where = `${step.method} ${step.path}`;
      if (!op.responses[step.status])
        return refuse(`status-changed names status ${step.status} of ${where}, which it does not document`);
      if (op.responses[step.previousStatus])
        return refuse(
          `status-changed names previous status ${step.previousStatus} of ${where}, which it documents already`,
        );
      const responses = Object.fromEntries(
        Object.entries(op.responses).map(([s, r]) => [Number(s) === step.status ? step.previousStatus : s, r]),
      );
      return replace(op, { ...op, responses });
    }
    case 'query-renamed': {
      const op = routed(step.method, step.path);
      const properties = op?.query?.properties as Record<string, unknown> | undefined;
      if (!op) return operations;
      if (properties && !Object.hasOwn(properties, step.name))
        return refuse(`query-renamed names ${step.name} of ${step.method} ${step.path}, which it does not take`);
      if (!op.query || !properties) return operations;
      return replace(op, { ...op, query: withMemberRenamed(op.query, step.name, step.previousName) });
    }
    case 'header-renamed': {
      if ((step.method === undefined) !== (step.path === undefined))
        return refuse('header-renamed names a method and a path together, or neither (every endpoint)');
      const only = step.method === undefined ? undefined : routed(step.method, step.path);
      if (step.method !== undefined && !only) return operations;
      if (step.in === 'request') return operations;
      const name = step.name.toLowerCase();
      return operations.map((op) => (only && op !== only ? op : renameResponseHeader(op, name, step.previousName)));
    }
  }
}

/**
 * Where an instruction is undone among a version's: schema instructions in their order, then the
 * transport changes, then removed endpoints (a copy of a route the newer version serves, before
 * that route moves or goes), then added ones, then moves, so each names a route as the newer
 * version has it.
 */
export function undoOrder(step: Instruction): number {
  const ranks: Partial<Record<Instruction['op'], number>> = {
    'status-changed': 1,
    'header-renamed': 1,
    'query-renamed': 1,
    'endpoint-removed': 2,
    'endpoint-added': 3,
    'endpoint-moved': 4,
  };
  return ranks[step.op] ?? 0;
}

/** An object schema with member `from` named `to`, in its place among the others (documents keep their order). */
export function withMemberRenamed(schema: JsonSchema, from: string, to: string): JsonSchema {
  const rename = (key: string) => (key === from ? to : key);
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [rename(k), v]));
  const required = Array.isArray(schema.required) ? { required: (schema.required as string[]).map(rename) } : {};
  return { ...schema, properties, ...required };
}

/** The id of an endpoint back in an older version, from its route: `get_legacy_users`. */
function removedOperationId(method: string, path: string): string {
  return `${method.toLowerCase()}_${path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

function sameParameters(a: string, b: string): boolean {
  const names = (path: string) => JSON.stringify([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort());
  return names(a) === names(b);
}

/** The operation with response header `name` (any case, `?` kept) documented as `previousName`. */
function renameResponseHeader(op: OperationSpec, name: string, previousName: string): OperationSpec {
  let changed = false;
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, response]) => {
      if (!response.headers) return [status, response];
      const headers = response.headers.map((h) => {
        const optional = h.endsWith('?');
        if ((optional ? h.slice(0, -1) : h).toLowerCase() !== name) return h;
        changed = true;
        return previousName + (optional ? '?' : '');
      });
      return [status, { ...response, headers }];
    }),
  );
  return changed ? { ...op, responses } : op;
}
