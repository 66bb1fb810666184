import { lifecycleConfigKeys } from '../../core/lifecycle/index.ts';
import { settingsSection } from '../host/config.ts';
import { parseLifecycleSettings } from './settings.ts';

/** The lifecycle part's section of the config file: the versions' schedules and the lifecycle's rules. */
export const lifecycleSection = settingsSection('lifecycle', {
  keys: lifecycleConfigKeys,
  parse: parseLifecycleSettings,
});
