import { Type, type Static } from '@sinclair/typebox';
import { fn, text, typedAs } from '../host/option-schemas.ts';
import type { NoticeChannel } from './channel.ts';

/** The notices part's options, checked at registration; their type is {@link LoopNoticesOptions}. */
export const noticesOptionsSchema = Type.Object(
  {
    noticeChannels: Type.Optional(
      typedAs<readonly NoticeChannel[]>(
        Type.Array(
          Type.Object({ name: text(), recipients: fn(), deliver: Type.Optional(fn()), close: Type.Optional(fn()) }),
          { errorText: 'must be an array of channels, each { name, recipients(client), deliver?(delivery) }' },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * Options of the notices part.
 *
 * @example
 * ```ts
 * const options: LoopNoticesOptions = { noticeChannels: [slackChannel] };
 * ```
 */
export type LoopNoticesOptions = Static<typeof noticesOptionsSchema>;
