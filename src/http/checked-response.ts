import type { MigrationContext, OperationSpec } from '../core/versions/index.ts';
import type { FieldSelection } from '../core/versions/field-selection.ts';
import type { OperationResult } from './operation-types.ts';
import type { ResponseCheck, ResponseViolation } from './response-check.ts';
import type { VersionScope } from './version-scope.ts';

/** The body to send, migrated down to the version and projected to the fieldset, or why it may not go out. */
export type CheckedResponse = (
  result: OperationResult,
  selection: FieldSelection | undefined,
  /** The call, as response migrations are told it. */
  context?: MigrationContext,
) => { out: unknown; violation: ResponseViolation | undefined };

/** The response path of one operation: migration down, projection, and the check of what goes out. */
export function createCheckedResponse(scope: VersionScope, operation: OperationSpec): CheckedResponse {
  const { bundle, version, checks } = scope;
  // Compiled here, at start, so a schema the validator cannot compile fails registration.
  const checkOf = new Map<number, ResponseCheck>();
  for (const [status, spec] of Object.entries(operation.responses)) {
    if (spec.schema && checks) checkOf.set(Number(status), checks.of({ version, name: spec.schema }));
  }
  // A partial response is checked after `fields` projects it, against the same schema without
  // the partial schema's `required`: the check covers what goes out, and a handler may read
  // only what the fieldset keeps.
  const partialCheckOf = new Map<number, ResponseCheck>();
  const root = operation.responses[200]?.schema ?? operation.responses[201]?.schema;
  for (const status of [200, 201]) {
    if (checks && operation.partial && root && operation.responses[status]?.schema === root)
      partialCheckOf.set(status, checks.partialOf({ version, name: root, target: operation.partial }));
  }
  // The newest version's answers are the handler's own: no migration runs, so none is set up per call.
  const migrates = version !== bundle.latest;
  return (result, selection, context) => {
    let out = result.body;
    const schema = migrates ? operation.responses[result.status]?.schema : undefined;
    if (out !== undefined && schema)
      out = bundle.migrations.responseDown({
        schema,
        body: out,
        from: bundle.latest,
        to: version,
        ...(context ? { context: { ...context, status: result.status, headers: result.headers ?? {} } } : {}),
      });
    const partialCheck = selection && out !== undefined ? partialCheckOf.get(result.status) : undefined;
    if (selection && partialCheck) {
      // Projected first, then checked: only what the fieldset leaves is the handler's to answer for.
      const projected = selection.projectChecked(out);
      const violation =
        projected.missing !== undefined
          ? { pointer: '', detail: `has a ${selection.target} without ${projected.missing}, which it requires` }
          : partialCheck(projected.body);
      return { out: projected.body, violation };
    }
    const check = checkOf.get(result.status);
    const violation = check
      ? out === undefined
        ? { pointer: '', detail: 'is missing: the status has a body schema' }
        : check(out)
      : undefined;
    if (!violation && selection && out !== undefined) out = selection.project(out);
    return { out, violation };
  };
}
