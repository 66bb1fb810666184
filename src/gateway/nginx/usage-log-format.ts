/**
 * The usage log nginx writes for each API call, as `versionary nginx` renders it: one JSON object
 * a line. The control plane reads it back (the usage reader); this module is the one place both
 * sides take the format from.
 */

/** The `log_format` name the rendered `nginx.conf` and `versionary.conf` declare. */
const usageLogFormatName = 'versionary_usage';

/**
 * The `log_format` directive, as it goes into the `http {}` block. `escape=json` makes every value a
 * JSON string, so each line is one JSON object.
 *
 * @example
 * ```text
 * {"ts":"1764268200.123","rid":"4f…","version":"v1","operation":"/users/{id}","method":"GET","client":"acme","status":"200","deprecated":"GET /users/{id}?fields"}
 * ```
 */
export const usageLogFormat =
  `log_format ${usageLogFormatName} escape=json ` +
  `'{"ts":"$versionary_ts","rid":"$request_id","version":"$versionary_version","operation":"$versionary_operation",` +
  `"method":"$request_method","client":"$versionary_client","status":"$status","deprecated":"$versionary_deprecated"}';`;

/**
 * The `access_log` directive for the usage log at `path`: only API calls (`$versionary_log` is
 * `1`), written in 32 KiB buffers flushed every second. A write per call costs more than the rest of
 * the data plane when the control plane watches the file (each write is an inotify event); the
 * reader leaves a line without its newline until nginx finishes it, and nginx flushes on reopen.
 */
export function usageAccessLog(path: string): string {
  return `access_log ${path} ${usageLogFormatName} buffer=32k flush=1s if=$versionary_log;`;
}

/** One line of the usage log, parsed: every value is a string, as `escape=json` writes it. */
export interface UsageLogLine {
  /**
   * Seconds since the epoch with milliseconds, e.g. `"1764268200.123"`: when the request arrived,
   * on the rules' clock (the control plane's, which nginx judges by; `$msec` unless they differ).
   */
  ts: string;
  /** nginx's `$request_id`: 32 hex digits. */
  rid: string;
  /** The resolved version, e.g. `"v1"`. */
  version: string;
  /** The operation's route template below the version (`"/users/{id}"`), or the raw path when none matches. */
  operation: string;
  method: string;
  /** The client id the key check answered; empty when the call was not authenticated. */
  client: string;
  /** The HTTP status sent, e.g. `"200"`. */
  status: string;
  /** The deprecated elements the call used, comma-separated, as the lifecycle names them (`"GET /users/{id}?fields"`); empty when none. */
  deprecated: string;
}
