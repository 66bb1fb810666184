import type { FastifyRequest } from 'fastify';
import { resolveVersion } from '../core/negotiation/index.ts';
import type { ElementUseCheck } from '../core/lifecycle/index.ts';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';
import type { RequestStep } from './pipeline/request-pipeline.ts';
import {
  hookApplies,
  type ElementUseEvent,
  type OperationCallListener,
  type VersionedRequestHook,
} from './versioned-api-options.ts';

/** What a version's routes share, whether a handler or the upstream answers them. */
export interface RouteStepsScope {
  version: ApiVersion;
  supported: string[];
  vendor: string;
  hooks: readonly VersionedRequestHook[];
  onOperationCall?: OperationCallListener | undefined;
}

export interface VersionRouteStepsOptions {
  operationOf: (method: string) => OperationSpec;
  /** The operation as a hook is told of it (by default, the route's). */
  calledOf?: (request: FastifyRequest, method: string) => OperationSpec;
}

// The steps of the plugin's own hooks, by the hook function's name; any other is the app's.
const stepNames: Readonly<Record<string, string>> = { lifecycleHeaders: 'lifecycle-headers', rulebook: 'rulebook' };

// The `Accept` values found to agree with a version's scope: clients send a few values over and
// over, each read once (bounded, since the values are the clients').
const agreeingByScope = new WeakMap<RouteStepsScope, Set<string | undefined>>();

/** A version's per-route steps, for handlers and forwarding alike, each applied only where it can. */
export function versionRouteSteps(scope: RouteStepsScope, options: VersionRouteStepsOptions): RequestStep[] {
  const { version, supported, vendor } = scope;
  const { operationOf } = options;
  const calledOf = options.calledOf ?? ((_request: FastifyRequest, method: string) => operationOf(method));
  let agreeing = agreeingByScope.get(scope);
  if (!agreeing) agreeingByScope.set(scope, (agreeing = new Set()));
  const known = agreeing;
  const steps: RequestStep[] = [
    {
      name: 'negotiate',
      phase: 'version',
      thin: true,
      run: (request) => {
        const accept = request.headers.accept;
        if (known.has(accept)) return;
        // Throws when `Accept` names another version, a malformed one, or no JSON.
        resolveVersion({ pathVersion: version.number, accept, supported, vendor });
        if (known.size < 64 && (accept === undefined || accept.length <= 256)) known.add(accept);
      },
    },
  ];
  const onCall = scope.onOperationCall;
  if (onCall) {
    // Each operation's endpoint key, built once per operation rather than per call.
    const endpoints = new Map<OperationSpec, string>();
    const endpointOf = (operation: OperationSpec) => {
      let endpoint = endpoints.get(operation);
      if (endpoint === undefined) endpoints.set(operation, (endpoint = `${operation.method} ${operation.path}`));
      return endpoint;
    };
    steps.push({
      name: 'count-call',
      phase: 'version',
      thin: true,
      run: (request, _reply, route) => onCall(request, version.name, endpointOf(operationOf(route.method))),
    });
  }
  for (const hook of scope.hooks) {
    const name = stepNames[hook.name] ?? 'on-versioned-request';
    steps.push({
      name,
      phase: 'lifecycle',
      // Core's `decide` reads what the thin data plane's request has; the app's own hooks may not.
      thin: name === 'rulebook',
      // The operation's own method, and the route's (HEAD, or the method a 405 route refuses).
      appliesTo: (route) => {
        const operation = operationOf(route.method);
        return hookApplies(hook, {
          version: version.name,
          path: operation.path,
          methods: [operation.method, route.method],
        });
      },
      run: (request, reply, route) => hook({ request, reply, version, operation: calledOf(request, route.method) }),
    });
  }
  return steps;
}

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
