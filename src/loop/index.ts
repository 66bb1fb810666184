// `versionary/loop`: the deprecation loop in an app's own Fastify instance (docs/loop.md).
export { loopServerOptions, versionaryLoop } from '../compose/loop-plugin.ts';
export type { VersionaryLoopOptions } from '../compose/loop-plugin.ts';
export { DeliveryFailure } from '../service/notices/channel.ts';
export type { ChannelRecipient, NoticeChannel, NoticeDelivery } from '../service/notices/channel.ts';
export type { AppIdentity } from '../service/auth/principal.ts';
