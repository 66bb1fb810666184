import { lifecycleConfigKeys } from '../../core/lifecycle/index.ts';
import { defineSettings } from '../../kernel/config/feature-settings.ts';
import { parseWebhookSettings } from '../notices/webhook-settings.ts';
import { parseGatewaySettings } from '../../kernel/config/gateway-settings.ts';
import { parseLifecycleSettings } from '../lifecycle/settings.ts';
import { parseNoticesSettings } from '../notices/settings.ts';
import { parsePortalSettings } from '../portal/settings.ts';
import { parseRateLimitSettings } from '../access/rate-limit/settings.ts';
import { parseUsageSettings } from '../usage/settings.ts';
import { parseTimeoutSettings } from '../../kernel/app/timeouts.ts';

/**
 * The service's features and the config-file keys each one owns: a new feature with settings adds
 * one line here, and `loadConfig` parses it with every other in one pass.
 */
export const serviceSettings = {
  lifecycle: defineSettings({
    keys: lifecycleConfigKeys,
    parse: parseLifecycleSettings,
  }),
  rateLimit: defineSettings({ keys: ['rateLimit'], parse: parseRateLimitSettings }),
  timeouts: defineSettings({ keys: ['timeouts'], parse: parseTimeoutSettings }),
  usage: defineSettings({ keys: ['usage'], parse: parseUsageSettings }),
  webhooks: defineSettings({ keys: ['webhooks'], parse: parseWebhookSettings }),
  notices: defineSettings({ keys: ['notices', 'publicUrl'], parse: parseNoticesSettings }),
  gateway: defineSettings({ keys: ['gateway'], parse: parseGatewaySettings }),
  portal: defineSettings({ keys: ['portal'], parse: parsePortalSettings }),
};
