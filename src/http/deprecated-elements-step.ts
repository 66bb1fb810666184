import type { FastifyRequest } from 'fastify';
import type { ElementUseCheck } from '../core/lifecycle/index.ts';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';
import type { RequestStep } from './pipeline/request-pipeline.ts';
import type { ElementUseEvent } from './versioned-api-options.ts';

export interface DeprecatedElementsStepOptions {
  /** `input` where the body is parsed (a handler's route), `lifecycle` where it streams unread (forwarding). */
  phase: 'input' | 'lifecycle';
  version: ApiVersion;
  operationOf: (method: string) => OperationSpec;
  /** The operation's compiled check, or none when it has no deprecated element to look for. */
  checkOf: (operation: OperationSpec) => ElementUseCheck | undefined;
  read: (request: FastifyRequest) => Parameters<ElementUseCheck>[0];
  onUse: (event: ElementUseEvent) => void | Promise<void>;
}

/** The `deprecated-elements` step: the deprecated fields and parameters a call uses, told to `onUse`. */
export function deprecatedElementsStep(o: DeprecatedElementsStepOptions): RequestStep {
  return {
    name: 'deprecated-elements',
    phase: o.phase,
    appliesTo: (route) => o.checkOf(o.operationOf(route.method)) !== undefined,
    run: (request, reply, route) => {
      const operation = o.operationOf(route.method);
      const used = o.checkOf(operation)!(o.read(request));
      if (used.length > 0) return o.onUse({ request, reply, version: o.version, operation, used });
    },
  };
}
