import type { FastifyInstance } from 'fastify';
import type { ServiceContext, ServiceFeature, ServiceOptions } from './feature.ts';
import { brownoutsOf, decisionNoticesOf } from '../notices/brownouts-provided.ts';
import { installOwnedNotFound } from './owned-not-found.ts';
import type { LoopPartName, LoopState } from './loop-state.ts';
import { usageOf } from '../usage/install-usage.ts';

/**
 * Install a part's features, then, when the part answers its own unknown paths, the not-found
 * problems under the prefixes `part` owns (after its features, so that those contexts copy their
 * hooks). The features get the storage part's context, with what the parts before this one
 * provide (usage's recorder, notices' brownouts and decision notices, as Fastify decorators) and this part's own
 * options: a context of their own, so that no part writes into another's.
 */
export async function installFeatures(
  scope: FastifyInstance,
  state: LoopState,
  install: { features: readonly ServiceFeature[]; part: LoopPartName; options?: ServiceOptions },
): Promise<ServiceContext> {
  const usage = usageOf(scope);
  const brownouts = brownoutsOf(scope);
  const decisionNotices = decisionNoticesOf(scope);
  const context: ServiceContext = {
    ...state.context,
    ...(usage ? { recorder: usage.recorder, ...(usage.operations ? { operations: usage.operations } : {}) } : {}),
    ...(brownouts ? { brownouts } : {}),
    ...(decisionNotices ? { decisionNotices } : {}),
    options: { ...state.context.options, ...install.options },
  };
  for (const feature of install.features) await feature.install(context);
  if (state.partNotFound) await installOwnedNotFound(state.context, [install.part]);
  return context;
}
