import type { NoticeChannel } from './channel.ts';

/**
 * Options of the notices part.
 *
 * @example
 * ```ts
 * const options: LoopNoticesOptions = { noticeChannels: [slackChannel] };
 * ```
 */
export interface LoopNoticesOptions {
  /** Notice channels beside email and webhooks. */
  noticeChannels?: readonly NoticeChannel[];
}
