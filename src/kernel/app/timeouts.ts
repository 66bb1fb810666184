import { unknownKey } from '../../core/text/index.ts';
/** How long the server waits on a client, in seconds. */
export interface TimeoutSettings {
  /** The request line and headers must arrive within this (Node's `headersTimeout`). */
  headersSeconds: number;
  /** The whole request, body included, must arrive within this (`requestTimeout`); then 408. */
  requestSeconds: number;
  /** An idle keep-alive connection is closed after this (`keepAliveTimeout`). */
  keepAliveSeconds: number;
  /** A connection with no traffic either way is closed after this (`connectionTimeout`). */
  idleSeconds: number;
}

/**
 * Defaults for a public API: a slow client gets 10 s for its headers and 30 s for the whole
 * request, so a stalled body (slowloris) holds a socket for 30 s at most; idle keep-alive
 * connections are closed after 5 s (Node's own default; put a proxy's idle timeout above it),
 * and a connection silent in both directions after 60 s.
 *
 * @internal exported for the tests
 */
export const defaultTimeouts: TimeoutSettings = {
  headersSeconds: 10,
  requestSeconds: 30,
  keepAliveSeconds: 5,
  idleSeconds: 60,
};

const limits: Record<keyof TimeoutSettings, { min: number; max: number }> = {
  headersSeconds: { min: 1, max: 600 },
  requestSeconds: { min: 1, max: 3600 },
  keepAliveSeconds: { min: 1, max: 600 },
  idleSeconds: { min: 1, max: 3600 },
};

/** Read the `timeouts` key of the config file, pushing every error into `errors`. */
export function parseTimeoutSettings(options: { file: Record<string, unknown>; errors: string[] }): TimeoutSettings {
  const raw = options.file.timeouts;
  if (raw === undefined) return { ...defaultTimeouts };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    options.errors.push(
      'timeouts must be an object: { headersSeconds, requestSeconds, keepAliveSeconds, idleSeconds }',
    );
    return { ...defaultTimeouts };
  }
  const settings = { ...defaultTimeouts };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const range = limits[key as keyof TimeoutSettings];
    if (!range) {
      options.errors.push(unknownKey('timeouts', key, Object.keys(limits)));
      continue;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
      options.errors.push(`timeouts.${key} must be a whole number of seconds from ${range.min} to ${range.max}`);
      continue;
    }
    settings[key as keyof TimeoutSettings] = value;
  }
  // Node refuses a header timeout longer than the request timeout.
  if (settings.headersSeconds > settings.requestSeconds)
    options.errors.push('timeouts.headersSeconds must not exceed timeouts.requestSeconds');
  return settings;
}

/**
 * The Fastify server options that apply {@link TimeoutSettings}. Node checks the header and
 * request timeouts every `connectionsCheckingInterval`, 30 s by default: checking every second
 * keeps the bounds close to what is configured.
 */
export function toServerOptions(settings: TimeoutSettings) {
  return {
    requestTimeout: settings.requestSeconds * 1000,
    keepAliveTimeout: settings.keepAliveSeconds * 1000,
    connectionTimeout: settings.idleSeconds * 1000,
    http: { headersTimeout: settings.headersSeconds * 1000, connectionsCheckingInterval: 1000 },
  };
}
