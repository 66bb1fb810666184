import type { FastifyInstance } from 'fastify';
import type { ServiceContext, ServiceFeature } from './feature.ts';
import type { LoopState } from './loop-state.ts';
import { providedIn } from './provided.ts';

/** The context of the parts registered in `scope` so far: the storage part's, with what the others provide. */
export function partsContext(scope: FastifyInstance, state: LoopState): ServiceContext {
  return { ...state.context, ...providedIn(scope) };
}

/** Install a part's features with a context of their own (earlier parts' values, its options). */
export async function installFeatures<Context extends ServiceContext = ServiceContext>(
  scope: FastifyInstance,
  state: LoopState,
  install: { features: readonly ServiceFeature<Context>[]; options?: object },
): Promise<Context> {
  const context = {
    ...partsContext(scope, state),
    options: { ...state.context.options, ...install.options },
  } as Context;
  for (const feature of install.features) await feature.install(context);
  return context;
}
