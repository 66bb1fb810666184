import { settingsSection } from '../host/config.ts';
import { unknownKey } from '../../core/text/index.ts';
import { isPlainObject } from '../../core/versions/index.ts';
/** Address ranges an operator may open to webhooks; every other non-public range stays closed. */
const privateTargetKinds = ['loopback', 'private', 'linkLocal', 'carrierGradeNat'] as const;

export type PrivateTargetKind = (typeof privateTargetKinds)[number];

export interface WebhookSettings {
  /** Non-public ranges webhook URLs may resolve to; empty by default (public addresses only). */
  allowPrivateTargets: ReadonlySet<PrivateTargetKind>;
}

function parseWebhookSettings(options: { file: Record<string, unknown>; errors: string[] }): WebhookSettings {
  const raw = options.file.webhooks;
  const none: WebhookSettings = { allowPrivateTargets: new Set() };
  if (raw === undefined) return none;
  if (!isPlainObject(raw)) {
    options.errors.push(
      `webhooks must be an object such as {"allowPrivateTargets": ["loopback"]}, not ${JSON.stringify(raw)}`,
    );
    return none;
  }
  for (const key of Object.keys(raw))
    if (key !== 'allowPrivateTargets') options.errors.push(unknownKey('webhooks', key, ['allowPrivateTargets']));
  const list = raw.allowPrivateTargets ?? [];
  if (
    !Array.isArray(list) ||
    !list.every((k): k is PrivateTargetKind => (privateTargetKinds as readonly unknown[]).includes(k))
  ) {
    options.errors.push(
      `webhooks.allowPrivateTargets must be a list of ${privateTargetKinds.join(', ')}, not ${JSON.stringify(list)}`,
    );
    return none;
  }
  return { allowPrivateTargets: new Set(list) };
}

/** Where webhooks may be sent: a section of the config file, read by notices and the management part's clients. */
export const webhooksSection = settingsSection('webhooks', { keys: ['webhooks'], parse: parseWebhookSettings });
