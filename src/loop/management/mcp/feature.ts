import type { ServiceFeature } from '../../host/feature.ts';
import { createDiffCache } from '../../lifecycle/breaks/diff-cache.ts';
import { registerMcpRoutes } from './mcp-route.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';

/** The MCP server for agents at `/admin/mcp`: deprecations, what breaks, migration guides and usage as tools. */
export const mcpFeature: ServiceFeature<LifecycleContext> = {
  name: 'mcp',
  install({ app, storage, clock, runtime, recorder, operations, bundle, api }) {
    registerMcpRoutes(app, {
      bundle,
      runtime,
      clock,
      prefix: api.prefix,
      title: api.title,
      storage: { clients: storage.clients, usage: storage.usage },
      // Both buffers: what_breaks reads the per-operation counts, the other tools the usage rollups.
      flushUsage: async () => {
        await Promise.all([recorder.flush(), operations?.flush()]);
      },
      // The diff of a pair of versions is the same for every client: computed once per lifecycle state.
      diffs: createDiffCache({ clock, generation: () => runtime.generation() }),
      version: bundle.versions[bundle.versions.length - 1]?.name ?? 'v1',
    });
  },
};
