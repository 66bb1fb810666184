import type { ServiceFeature } from '../kernel/app/feature.ts';
import { installOwnedNotFound } from './owned-not-found.ts';
import type { LoopPartName, LoopState } from './loop-state.ts';

/**
 * Install a part's features with the shared context, then, when the part answers its own unknown
 * paths, the not-found problems under the prefixes `part` owns (after its features, so that those
 * contexts copy their hooks).
 */
export async function installFeatures(
  state: LoopState,
  features: readonly ServiceFeature[],
  part: LoopPartName,
): Promise<void> {
  for (const feature of features) await feature.install(state.context);
  if (state.partNotFound) await installOwnedNotFound(state.context, [part]);
}
