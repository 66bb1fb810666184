import { refName } from './schema-walk.ts';
import type { OperationSpec, SchemaMap } from './types.ts';

/** List every dangling `$ref` and every operation schema name that a version does not define. */
export function checkReferences(options: {
  version: string;
  schemas: SchemaMap;
  operations: OperationSpec[];
}): string[] {
  const { version, schemas, operations } = options;
  const problems: string[] = [];
  const visit = (value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${where}/${i}`));
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref') {
        const name = refName(child);
        if (name === undefined || !schemas[name])
          problems.push(`${version}: ${where} refers to ${String(child)}, which is not defined`);
      } else visit(child, `${where}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(schemas)) visit(schema, `#/components/schemas/${name}`);
  for (const op of operations) {
    const names = [op.body, op.partial, ...Object.values(op.responses).map((r) => r.schema)];
    for (const name of names) {
      if (name !== undefined && !schemas[name])
        problems.push(`${version}: operation ${op.id} uses schema "${name}", which is not defined`);
    }
  }
  return problems;
}
