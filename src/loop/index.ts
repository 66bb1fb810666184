// `versionary/loop`: the deprecation loop in an app's own Fastify instance (docs/loop.md).
export { loopServerOptions, versionaryLoop } from '../compose/loop-plugin.ts';
export type { VersionaryLoopOptions } from '../compose/loop-plugin.ts';
export { versionaryLoopAccess } from '../compose/loop-parts/access-part.ts';
export type { LoopPart } from '../compose/loop-parts/define-part.ts';
export { versionaryLoopLifecycle } from '../compose/loop-parts/lifecycle-part.ts';
export { loopPartNames } from '../compose/loop-parts/loop-state.ts';
export type { LoopPartName } from '../compose/loop-parts/loop-state.ts';
export { versionaryLoopManagement } from '../compose/loop-parts/management-part.ts';
export { versionaryLoopNotices } from '../compose/loop-parts/notices-part.ts';
export { versionaryLoopPortal } from '../compose/loop-parts/portal-part.ts';
export { versionaryLoopStorage } from '../compose/loop-parts/storage-part.ts';
export type {
  LoopAccessOptions,
  LoopLifecycleOptions,
  LoopNoticesOptions,
  LoopSettings,
  LoopStorageOptions,
} from '../compose/loop-parts/storage-part.ts';
export { versionaryLoopUsage } from '../compose/loop-parts/usage-part.ts';
export { DeliveryFailure } from '../service/notices/channel.ts';
export type { ChannelRecipient, NoticeChannel, NoticeDelivery } from '../service/notices/channel.ts';
export type { AppIdentity } from '../service/auth/principal.ts';
