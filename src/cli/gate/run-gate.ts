import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  judgeChanges,
  type DiffResult,
  type DocumentSet,
  type GateThreshold,
  type GateWaiver,
  type JudgedChange,
} from '../../core/compat/index.ts';
import { isSingleLineText, singleLineTextRule } from '../../core/text/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { isPlainObject } from '../../core/versions/index.ts';
import { parseText } from '../load-document.ts';
import {
  adminKey,
  flags,
  readString,
  type CliCommand,
  type OptionValues,
  ExitCode,
  UsageError,
  type CliIo,
} from '../command.ts';
import {
  formatGateGithub,
  formatGateJson,
  formatGateMarkdown,
  formatGateSarif,
  formatGateText,
  type GateReport,
} from './gate-report.ts';
import { GateSourceError, readGateSource, UnknownGateInput, type GateSource } from './read-usage.ts';

// A served version's name (versions are named v1, v2, …): an `info.version` of `1.4.0` names none.
const versionName = /^v[1-9]\d*$/;

/** The `diff` options the gate adds. */
export const gateOptions: CliCommand['options'] = flags(
  'server key window threshold exclude-client* waivers api-version',
);

/** Whether `diff` runs as the gate: any gate option (so one given without --server is refused, not ignored), or a format only the gate writes. */
export function isGateRun(values: OptionValues, format: string): boolean {
  return Object.keys(gateOptions).some((o) => values[o] !== undefined) || format === 'github' || format === 'sarif';
}

/**
 * Judge the diff's breaking and risk changes by the usage a running service recorded (with
 * `--server`) and by approvals and waivers, print the report, and return the exit code: 1 when a
 * broken change at the `failOn` level remains, 2 when the usage cannot be read.
 */
export async function runGate(options: {
  result: DiffResult;
  base: DocumentSet;
  values: OptionValues;
  io: CliIo;
  now: number;
  format: string;
  failOn: 'breaking' | 'risk';
  basePath: string;
  revisionPath: string;
}): Promise<number> {
  const { values, io, now } = options;
  const versionFlag = readString(values, 'api-version');
  const version = versionFlag ?? versionOf(options.base);
  const threshold = readThreshold(readString(values, 'threshold'));
  const windowMs = readWindow(readString(values, 'window'));
  const excludeClients = (values['exclude-client'] as string[] | undefined) ?? [];
  const waiversPath = readString(values, 'waivers');
  const waivers = waiversPath === undefined ? [] : await readWaivers(waiversPath, io.cwd);
  const server = readString(values, 'server');
  let source: GateSource | undefined;
  if (server !== undefined) {
    const key = adminKey(values, io);
    try {
      source = await readGateSource({ server, key, since: now - windowMs, until: now, version, excludeClients });
    } catch (error) {
      if (error instanceof UnknownGateInput) throw unknownInput(error, { server, versionFlag });
      if (!(error instanceof GateSourceError)) throw error;
      io.stderr(`versionary diff: cannot read the usage, so no change can be judged: ${error.message}\n`);
      return ExitCode.Error;
    }
  }
  if (server === undefined && ['window', 'threshold', 'exclude-client', 'key'].some((o) => values[o] !== undefined))
    throw new UsageError('--key, --window, --threshold and --exclude-client judge usage: they need --server');
  // After the service's own check, so a version it does not serve is named as such first.
  // Without the flag, an info.version that names no version (`1.0.0`) is left to the service to refuse.
  if (versionFlag !== undefined || versionName.test(version))
    assertDocumentVersion(version, options.base, {
      documentName: options.basePath,
      flagged: versionFlag !== undefined,
    });
  if (source?.usage.length === 0) {
    io.stderr(
      `versionary diff: warning: no calls to ${version} recorded in the window, so every change not accepted is judged Unaffected on no usage at all.\n`,
    );
  }
  const judged = judgeChanges({
    changes: options.result.changes,
    ...(source ? { usage: source.usage, prefix: source.prefix, approvals: source.approvals } : {}),
    version,
    threshold,
    excludeClients,
    waivers,
    now,
  });
  const fails = (j: JudgedChange) =>
    j.status === 'broken' && (j.change.level === 'breaking' || options.failOn === 'risk');
  const report: GateReport = {
    judged,
    compatible: options.result.changes.filter((c) => c.level === 'compatible'),
    version,
    ...(source ? { window: { since: source.since, until: source.until } } : {}),
    fails,
  };
  const formats: Record<string, () => string> = {
    text: () => formatGateText(report),
    markdown: () => formatGateMarkdown(report),
    json: () => formatGateJson(report),
    github: () => formatGateGithub(report),
    sarif: () => formatGateSarif(report, { document: options.revisionPath }),
  };
  io.stdout(formats[options.format]!());
  return judged.some(fails) ? ExitCode.Findings : ExitCode.Ok;
}

/** One line naming the option (or the document's `info.version`) whose value the service does not know. */
function unknownInput(
  error: UnknownGateInput,
  options: { server: string; versionFlag: string | undefined },
): UsageError {
  const said = typeof error.detail === 'string' ? ` (${error.detail.slice(0, 300)})` : '';
  if (error.kind === 'client')
    return new UsageError(
      `--exclude-client ${error.value}: ${options.server} has no such client and no call under that id in the window${said}`,
    );
  const named =
    options.versionFlag === undefined
      ? `the base document's info.version "${error.value}" is not a version ${options.server} serves; pass --api-version`
      : `--api-version ${error.value}: ${options.server} serves no such version`;
  return new UsageError(`${named}${said}`);
}

function versionOf(base: DocumentSet): string {
  const version = (base.documents.get(base.root) as { info?: { version?: unknown } } | undefined)?.info?.version;
  if (typeof version !== 'string' || version === '')
    throw new UsageError('the base document has no info.version: pass --api-version with the served version name');
  return version;
}

function readThreshold(text: string | undefined): GateThreshold {
  if (text === undefined) return { calls: 1 };
  const calls = /^([1-9]\d{0,14})$/.exec(text);
  if (calls) return { calls: Number(calls[1]) };
  const percent = /^(\d{1,3}(?:\.\d+)?)%$/.exec(text);
  if (percent && Number(percent[1]) > 0 && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  throw new UsageError(`--threshold must be a number of calls (1, 5) or a share of the calls (5%), got "${text}"`);
}

function readWindow(text: string | undefined): number {
  if (text === undefined) return 7 * 86_400_000;
  const match = /^([1-9]\d{0,4})([dh])$/.exec(text);
  if (!match) throw new UsageError(`--window must be days or hours (7d, 36h), got "${text}"`);
  return Number(match[1]) * (match[2] === 'd' ? 86_400_000 : 3_600_000);
}

/**
 * Read a waivers file (JSON or YAML): `{ waivers: [{ fingerprint, reason, expires? }] }`, each
 * `expires` an ISO 8601 date or instant. A malformed file is a usage error (exit 2), never ignored.
 */
async function readWaivers(path: string, cwd: string): Promise<GateWaiver[]> {
  const file = resolve(cwd, path);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--waivers: cannot read ${path}: ${error.code ?? error.message}`);
  });
  const parsed = parseText({ text, name: path }) as { waivers?: unknown } | null;
  if (!Array.isArray(parsed?.waivers)) throw new UsageError(`--waivers: ${path} has no "waivers" list`);
  return parsed.waivers.map((w: unknown, i: number) => {
    const { fingerprint, reason, expires } = (w ?? {}) as Record<string, unknown>;
    const where = `${path}: waivers[${i}]`;
    if (typeof fingerprint !== 'string' || !/^[0-9a-f]{16}$/.test(fingerprint))
      throw new UsageError(`${where}.fingerprint must be the 16 hex digits diff prints`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new UsageError(`${where}.reason must say why`);
    // Reasons are printed in reports and CI logs: a `\r` or terminal escape could forge a row there.
    if (!isSingleLineText(reason)) throw new UsageError(`${where}.reason ${singleLineTextRule}`);
    if (expires === undefined) return { fingerprint, reason };
    // YAML reads an unquoted date as a Date: accept it as the date it spells.
    const text = expires instanceof Date ? expires.toISOString() : expires;
    const at = typeof text === 'string' ? parseIsoInstant(text) : undefined;
    if (at === undefined) throw new UsageError(`${where}.expires must be an ISO 8601 date or instant`);
    return { fingerprint, reason, expires: at };
  });
}

/**
 * Refuse a gate version the base document does not describe: its `info.version` (when it names a
 * version) or the version segment all its paths share (`/api/v2/…`). Judged on another version's
 * usage, no row matches the document's operations and every change passes as Unaffected.
 */
function assertDocumentVersion(
  version: string,
  base: DocumentSet,
  options: { documentName: string; flagged: boolean },
): void {
  const doc = base.documents.get(base.root) as { info?: { version?: unknown }; paths?: unknown } | undefined;
  const info = doc?.info?.version;
  const named = typeof info === 'string' && versionName.test(info) ? info : undefined;
  const paths = sharedVersionPath(Object.keys(isPlainObject(doc?.paths) ? doc.paths : {}));
  const said = [
    ...(named !== undefined && named !== version ? [`its info.version is "${named}"`] : []),
    ...(paths !== undefined && paths.version !== version ? [`its paths are under ${paths.prefix}`] : []),
  ];
  if (said.length === 0) return;
  const described = named ?? paths!.version;
  const chosen = options.flagged ? `--api-version ${version}` : `the info.version "${version}"`;
  throw new UsageError(
    `${chosen} is not the version of ${options.documentName}: ${said.join(', ')}; pass --api-version ${described}, or documents of ${version}`,
  );
}

/** The path up to its version segment (`/api/v2`), when every path has the same one. */
function sharedVersionPath(paths: readonly string[]): { prefix: string; version: string } | undefined {
  let found: { prefix: string; version: string } | undefined;
  for (const path of paths) {
    const segments = path.split('/');
    const at = segments.findIndex((s) => versionName.test(s));
    if (at === -1) return undefined;
    const prefix = segments.slice(0, at + 1).join('/');
    if (found && found.prefix !== prefix) return undefined;
    found ??= { prefix, version: segments[at]! };
  }
  return found;
}
