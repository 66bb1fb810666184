/** What naming the `fields` twins needs of an operation: its partial schema and success bodies. */
export interface TwinOperation {
  partial?: string;
  responses?: Readonly<Record<number, { schema?: string } | undefined>>;
}

/** The name of a schema's `fields` twin in a generated document: `User` → `UserPartial`. */
export function partialTwinName(name: string): string {
  return `${name}Partial`;
}

/**
 * The `<Name>Partial` twins a generated document shows for `fields`, each mapped to the schema it
 * copies. Imports nothing, so the lifecycle reads the same names without the document generator.
 */
export function partialTwins(operations: readonly TwinOperation[]): Map<string, string> {
  const twins = new Map<string, string>();
  for (const op of operations) {
    if (op.partial === undefined) continue;
    twins.set(partialTwinName(op.partial), op.partial);
    for (const [status, spec] of Object.entries(op.responses ?? {})) {
      if (Number(status) < 400 && spec?.schema !== undefined) twins.set(partialTwinName(spec.schema), spec.schema);
    }
  }
  return twins;
}
