/** The one check that every operation has a handler and every handler an operation. */
export function handlerCoverage(
  head: { operations: readonly { id: string }[] },
  handlers: Record<string, unknown>,
): { missing: string[]; unknown: string[] } {
  const ids = new Set(head.operations.map((op) => op.id));
  return {
    missing: [...ids].filter((id) => typeof handlers[id] !== 'function'),
    unknown: Object.keys(handlers).filter((id) => !ids.has(id)),
  };
}

/** The coverage as the `handlers` option's problems, as the plugin and the loop report them. */
export function handlerOptionProblems(
  head: { operations: readonly { id: string }[] },
  handlers: Record<string, unknown>,
): string[] {
  const { missing, unknown } = handlerCoverage(head, handlers);
  return [
    ...(missing.length > 0 ? [`handlers lacks a function for operation(s): ${missing.join(', ')}`] : []),
    ...(unknown.length > 0 ? [`handlers names operation(s) the bundle does not declare: ${unknown.join(', ')}`] : []),
  ];
}
