import { createNoopMeter, metrics, type Counter, type MeterProvider } from '@opentelemetry/api';
import { versionaryMeter } from './attribute-names.ts';

// The API's no-op meter hands out one shared counter: a counter that is it records nothing.
const noopCounter = createNoopMeter().createCounter(versionaryMeter.calls);

/**
 * The `versionary.calls` counter of the MeterProvider registered now, or `undefined` when none is
 * (the caller then builds no attributes). The API hands a no-op meter for good when asked before
 * an SDK registers (the SDK may start after the app is built), so the counter is made again
 * whenever the global provider changes: one comparison per call.
 */
export function createCallCounter(): () => Counter | undefined {
  let provider: MeterProvider | undefined;
  let counter: Counter | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (current !== provider) {
      provider = current;
      const made = current.getMeter(versionaryMeter.name).createCounter(versionaryMeter.calls, {
        description: 'Calls of a version of the API, by version, deprecation, route and client.',
        unit: '{call}',
      });
      counter = made === noopCounter ? undefined : made;
    }
    return counter;
  };
}
