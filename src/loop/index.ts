// `versionary/loop`: the deprecation loop in an app's own Fastify instance (docs/loop.md).
export { loopServerOptions, versionaryLoop } from './preset.ts';
export type { VersionaryLoopOptions } from './preset.ts';
export { versionaryLoopAccess } from './access/part.ts';
export type { LoopPart } from './host/define-part.ts';
export { versionaryLoopLifecycle } from './lifecycle/part.ts';
export { loopPartNames } from './host/loop-state.ts';
export type { LoopPartName } from './host/loop-state.ts';
export { versionaryLoopManagement } from './management/part.ts';
export { versionaryLoopNotices } from './notices/part.ts';
export { versionaryLoopPortal } from './portal/part.ts';
export { versionaryLoopStorage } from './storage/part.ts';
export type {
  LoopAccessOptions,
  LoopHandlersContext,
  LoopHost,
  LoopLifecycleOptions,
  LoopNoticesOptions,
  LoopSettings,
  LoopStorageOptions,
} from './storage/part.ts';
export { versionaryLoopUsage } from './usage/part.ts';
export { DeliveryFailure } from './notices/channel.ts';
export type { ChannelRecipient, NoticeChannel, NoticeDelivery } from './notices/channel.ts';
export type { AppIdentity } from './access/auth/principal.ts';
export type { LoopForward } from './lifecycle/forward-feature.ts';
