import { compatRules, describeLocation, isRuleId, type Change, type JudgedChange } from '../../core/compat/index.ts';
import { escapeControls } from '../../core/text/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';

/** Everything a gate report shows. */
export interface GateReport {
  judged: JudgedChange[];
  compatible: Change[];
  /** The version the usage was read for (the base document's). */
  version: string;
  /** The usage window; absent without `--server`. */
  window?: { since: number; until: number };
  /** Whether a judged change fails the run: broken, at the `--fail-on` level. */
  fails: (j: JudgedChange) => boolean;
}

const order = { broken: 0, approved: 1, unaffected: 2 } as const;

/** Judged changes, failing ones first, then broken, approved and unaffected; document order within each. */
function ordered(report: GateReport): JudgedChange[] {
  const rank = (j: JudgedChange) => (report.fails(j) ? -1 : order[j.status]);
  return report.judged
    .map((j, i) => ({ j, i }))
    .sort((a, b) => rank(a.j) - rank(b.j) || a.i - b.i)
    .map(({ j }) => j);
}

/** One line per affected client: `Acme (cl_…): 12 calls, last 2026-11-26T08:00:00.000Z, contact yes`. */
function describeClient(c: JudgedChange['clients'][number]): string {
  // Names, reasons and approvers come from the server: escaped, so a stored `\r` cannot redraw a row.
  const name = escapeControls(c.name === null ? c.id : `${c.name} (${c.id})`);
  return `${name}: ${c.calls} call${c.calls === 1 ? '' : 's'}, last ${formatIsoInstant(c.lastSeen)}, contact ${c.contact ? 'yes' : 'no'}`;
}

/**
 * Why a change is what it is, in one line; undefined without a usage source and no acceptance,
 * where the summary says once that every change counts as broken.
 */
function verdict(j: JudgedChange): string | undefined {
  const a = j.acceptedBy;
  if (a !== undefined) {
    const until = a.expiresAt === null ? '' : ` until ${formatIsoInstant(a.expiresAt)}`;
    const reason = escapeControls(a.reason);
    return a.kind === 'approval'
      ? `approved by ${escapeControls(a.by)}${until}: ${reason}`
      : `waived${until}: ${reason}`;
  }
  if (!j.usageKnown) return undefined;
  if (j.status === 'unaffected')
    return j.excluded.length > 0
      ? 'only excluded clients called it in the window'
      : 'no client called it in the window';
  return `hurts ${j.clients.length} client${j.clients.length === 1 ? '' : 's'}`;
}

/**
 * What the usage did not say: a change judged with no usage row at all, or the operations it
 * reaches that no row names. A gate never passes on silence without saying so.
 */
function silence(j: JudgedChange): string | undefined {
  if (!j.usageKnown) return undefined;
  if (j.rowsRead === 0)
    return `no usage row read for ${j.operations.length > 0 ? 'any operation it reaches' : 'the version'} in the window`;
  if (j.unseen.length > 0) return `no usage row read for ${j.unseen.join(', ')} in the window`;
  return undefined;
}

/** `fingerprint …; verdict`, the verdict left out when there is none. */
const fingerprintLine = (j: JudgedChange, code: (s: string) => string = (s) => s) => {
  const why = verdict(j);
  return `fingerprint ${code(j.fingerprint)}${why === undefined ? '' : `; ${why}`}`;
};

function summarize(report: GateReport): Record<'broken' | 'unaffected' | 'approved' | 'compatible', number> {
  const count = (s: JudgedChange['status']) => report.judged.filter((j) => j.status === s).length;
  return {
    broken: count('broken'),
    unaffected: count('unaffected'),
    approved: count('approved'),
    compatible: report.compatible.length,
  };
}

/** The summary sentence shared by the text and Markdown reports. */
function summaryLine(report: GateReport): string {
  const s = summarize(report);
  const failing = report.judged.filter(report.fails).length;
  const window = report.window
    ? ` from usage of ${report.version} between ${formatIsoInstant(report.window.since)} and ${formatIsoInstant(report.window.until)}`
    : '';
  const silent = report.judged.filter((j) => j.usageKnown && j.rowsRead === 0).length;
  const tail = !report.window
    ? ' No usage source (--server): every breaking change, and every risk under --fail-on risk, counts as broken.'
    : silent > 0
      ? ` ${silent} judged with no usage row read for what ${silent === 1 ? 'it reaches' : 'they reach'}.`
      : '';
  return `${report.judged.length} breaking or risk changes judged${window}: ${s.broken} broken (${failing} failing), ${s.unaffected} unaffected, ${s.approved} approved; ${s.compatible} compatible.${tail}`;
}

/** Plain text for terminals and CI logs. */
export function formatGateText(report: GateReport): string {
  const lines: string[] = [];
  for (const j of ordered(report)) {
    const c = j.change;
    lines.push(`${j.status.toUpperCase().padEnd(10)} ${c.level.padEnd(8)} ${c.id}  ${describeLocation(c)}`);
    lines.push(`           ${c.message}`);
    lines.push(`           ${fingerprintLine(j)}`);
    if (j.operations.length > 0) lines.push(`           reaches ${j.operations.join(', ')}`);
    const unread = silence(j);
    if (unread !== undefined) lines.push(`           ${unread}`);
    for (const client of j.clients) lines.push(`             - ${describeClient(client)}`);
    for (const client of j.excluded) lines.push(`             - excluded: ${describeClient(client)}`);
    for (const e of j.expired)
      lines.push(
        `           expired ${e.kind} (${e.expiresAt === null ? '' : formatIsoInstant(e.expiresAt)}): ${escapeControls(e.reason)}`,
      );
  }
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/** Markdown for a pull request or `$GITHUB_STEP_SUMMARY`: broken changes in full, the others folded. */
export function formatGateMarkdown(report: GateReport): string {
  const out: string[] = ['# API changes and who they break', '', summaryLine(report), ''];
  const all = ordered(report);
  const section = (title: string, status: JudgedChange['status']) => {
    const rows = all.filter((j) => j.status === status);
    const fold = status !== 'broken';
    if (rows.length === 0) return;
    const head = `${title} (${rows.length})`;
    out.push(fold ? `<details><summary>${head}</summary>\n` : `## ${head}\n`);
    for (const j of rows) {
      out.push(`- **\`${j.change.id}\`** ${escape(describeLocation(j.change))}: ${escape(j.change.message)}`);
      out.push(`  - ${escape(fingerprintLine(j, (f) => `\`${f}\``))}`);
      if (j.operations.length > 0) out.push(`  - reaches ${j.operations.map((o) => `\`${o}\``).join(', ')}`);
      const unread = silence(j);
      if (unread !== undefined) out.push(`  - ${escape(unread)}`);
      for (const c of j.clients) out.push(`  - ${escape(describeClient(c))}`);
      for (const c of j.excluded) out.push(`  - excluded: ${escape(describeClient(c))}`);
    }
    out.push(fold ? '\n</details>\n' : '');
  };
  section('Broken', 'broken');
  section('Approved', 'approved');
  section('Unaffected', 'unaffected');
  return `${out.join('\n')}\n`;
}

/** JSON for machines: every judged change with its status, fingerprint, operations and clients. */
export function formatGateJson(report: GateReport): string {
  const iso = (ms: number | null) => (ms === null ? null : formatIsoInstant(ms));
  const client = (c: JudgedChange['clients'][number]) => ({ ...c, lastSeen: formatIsoInstant(c.lastSeen) });
  const body = {
    version: report.version,
    ...(report.window ? { window: { since: iso(report.window.since), until: iso(report.window.until) } } : {}),
    summary: summarize(report),
    changes: ordered(report).map((j) => ({
      status: j.status,
      failing: report.fails(j),
      fingerprint: j.fingerprint,
      ...j.change,
      operations: j.operations,
      usageRowsRead: j.usageKnown ? j.rowsRead : null,
      operationsWithoutUsage: j.unseen,
      ...(silence(j) === undefined ? {} : { silence: silence(j) }),
      clients: j.clients.map(client),
      excluded: j.excluded.map(client),
      ...(j.acceptedBy ? { acceptedBy: { ...j.acceptedBy, expiresAt: iso(j.acceptedBy.expiresAt) } } : {}),
      expired: j.expired.map((e) => ({ ...e, expiresAt: iso(e.expiresAt) })),
    })),
    compatible: report.compatible,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

// Markdown outside code spans: a `|`, `<` or `*` in a message must not start markup.
const escape = (text: string) => text.replaceAll('\n', ' ').replace(/([\\*_<>[\]|])/g, '\\$1');

/**
 * GitHub Actions workflow commands: `::error` for a failing change, `::warning` for a broken one
 * that does not fail the run (a risk under `--fail-on breaking`), `::notice` for the others.
 */
export function formatGateGithub(report: GateReport): string {
  const lines = ordered(report).map((j) => {
    const command = report.fails(j) ? 'error' : j.status === 'broken' ? 'warning' : 'notice';
    const title = `${j.status} ${j.change.level} change ${j.change.id} (${j.fingerprint})`;
    return `::${command} title=${property(title)}::${data(messageOf(j))}`;
  });
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

/** SARIF 2.1.0, for code scanning: one result per judged change, its fingerprint in `partialFingerprints`. */
export function formatGateSarif(report: GateReport, options: { document: string }): string {
  const judged = ordered(report);
  const ruleIds = [...new Set(judged.map((j) => j.change.id))];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'versionary',
            informationUri: 'https://github.com/versionary/versionary/blob/main/docs/compatibility.md',
            rules: ruleIds.map((id) => ({
              id,
              shortDescription: { text: isRuleId(id) ? compatRules[id].description : id },
            })),
          },
        },
        results: judged.map((j) => ({
          ruleId: j.change.id,
          level: report.fails(j) ? 'error' : j.status === 'broken' ? 'warning' : 'note',
          message: { text: messageOf(j) },
          partialFingerprints: { 'versionaryChange/v1': j.fingerprint },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: options.document } },
              logicalLocations: j.operations.map((op) => ({ name: op, kind: 'function' })),
            },
          ],
          ...(j.acceptedBy
            ? { suppressions: [{ kind: 'external', status: 'accepted', justification: verdict(j) ?? '' }] }
            : {}),
          properties: {
            status: j.status,
            level: j.change.level,
            clients: j.clients.map(describeClient),
            ...(j.usageKnown ? { usageRowsRead: j.rowsRead, operationsWithoutUsage: j.unseen } : {}),
          },
        })),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

function messageOf(j: JudgedChange): string {
  const clients = j.clients.map(describeClient);
  const why = verdict(j);
  return [
    `${describeLocation(j.change)}: ${j.change.message}`,
    ...(why === undefined ? [] : [`${why}${clients.length > 0 ? `: ${clients.join('; ')}` : ''}`]),
    ...(silence(j) === undefined ? [] : [silence(j)]),
  ].join('\n');
}

// Workflow command escaping: data escapes %, CR and LF; properties also : and ,.
const data = (text: string) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const property = (text: string) => data(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
