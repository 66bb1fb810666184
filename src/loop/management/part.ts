import { defineLoopPart } from '../host/define-part.ts';
import { Type } from '@sinclair/typebox';
import { bool, optionsValidator } from '../host/option-schemas.ts';
import type { LifecycleContext } from '../lifecycle/context.ts';

const managementOptionsSchema = Type.Object({ mcp: Type.Optional(bool()) }, { additionalProperties: false });

/**
 * The loop's management API under `/admin/v1`: API keys, clients, each version's and endpoint's
 * stored schedule, usage, approvals, and everything deprecated; and the MCP server for agents at
 * `/admin/mcp` unless `mcp: false` (it answers 501 until `@modelcontextprotocol/sdk` is installed).
 *
 * @example
 * ```ts
 * await loop.register(versionaryLoopManagement, { mcp: false });
 * ```
 */
export const versionaryLoopManagement = defineLoopPart<{ mcp?: boolean }>({
  name: 'versionary-loop-management',
  dependencies: ['versionary-loop-storage', 'versionary-loop-lifecycle', 'versionary-loop-access'],
  options: optionsValidator(managementOptionsSchema),
  async install(app, state, options) {
    const [{ adminFeature }, { mcpFeature }, { installFeatures }] = await Promise.all([
      import('./admin/feature.ts'),
      import('./mcp/feature.ts'),
      import('../host/install-features.ts'),
    ]);
    const features = options.mcp === false ? [adminFeature] : [adminFeature, mcpFeature];
    await installFeatures<LifecycleContext>(app, state, { features });
  },
});
