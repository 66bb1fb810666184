import {
  judgeChanges,
  type DiffResult,
  type DocumentSet,
  type GateThreshold,
  type JudgedChange,
} from '../../core/compat/index.ts';
import { readString, type OptionValues } from '../command.ts';
import { ExitCode, UsageError, type CliIo } from '../io.ts';
import { formatGateGithub, formatGateSarif } from './ci-formats.ts';
import { formatGateJson, formatGateMarkdown, formatGateText, type GateReport } from './gate-report.ts';
import { GateSourceError, readGateSource, UnknownGateInput, type GateSource } from './read-usage.ts';
import { readWaivers } from './waivers.ts';
import { assertDocumentVersion } from './document-version.ts';

/** The `diff` options the gate adds. */
export const gateOptions = {
  server: { type: 'string' },
  key: { type: 'string' },
  window: { type: 'string' },
  threshold: { type: 'string' },
  'exclude-client': { type: 'string', multiple: true },
  waivers: { type: 'string' },
  'api-version': { type: 'string' },
} as const;

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
    const key = readString(values, 'key') ?? io.env?.VERSIONARY_KEY;
    if (!key) throw new UsageError('--server needs an admin key: --key <key> or VERSIONARY_KEY');
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
  if (versionFlag !== undefined || /^v[1-9]\d*$/.test(version))
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
