import type { ParsedSettings } from '../kernel/config/feature-settings.ts';
import { configError, type LoadConfigOptions } from '../kernel/config/load-config.ts';
import * as host from './host/config.ts';
import { lifecycleSection } from './lifecycle/settings.ts';
import { rateLimitSection } from './access/rate-limit/settings.ts';
import { usageSection } from './usage/settings.ts';
import { webhooksSection } from './notices/webhook-settings.ts';
import { noticesSection } from './notices/settings.ts';
import { portalSection } from './portal/settings.ts';

/**
 * The sections of the config file the loop's parts read, and the keys each one owns: each part
 * declares its section in its folder (`settingsSection`) and reads it with `section.of(config)`;
 * a new one is one line here. The host parses whatever list it is given (`loop/host/config.ts`);
 * this one is the loop's, beside the preset, so that no part and no file of the host imports
 * another part's parser. `loadConfig` parses them all in one pass, in this order.
 */
export const serviceSettings = {
  lifecycle: lifecycleSection,
  rateLimit: rateLimitSection,
  timeouts: host.timeoutsSection,
  usage: usageSection,
  webhooks: webhooksSection,
  notices: noticesSection,
  gateway: host.gatewaySection,
  portal: portalSection,
};
/** The loop's configuration: the environment's part, and every section above parsed. */
export type ServiceConfig = host.LoopConfig<ParsedSettings<typeof serviceSettings>>;

/** Parse the environment and the JSON config file once, at start, reporting every error at once. */
export function loadConfig(options: LoadConfigOptions): ServiceConfig {
  const { config, errors } = readConfig(options);
  if (errors.length > 0) throw configError(errors);
  return config;
}

/** {@link loadConfig} without the throw: every error, and whatever parsed beside them. */
export function readConfig(options: LoadConfigOptions): { config: ServiceConfig; errors: string[] } {
  return host.readConfig(serviceSettings, options);
}
