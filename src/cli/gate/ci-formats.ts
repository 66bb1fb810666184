import { compatRules, describeLocation, isRuleId, type JudgedChange } from '../../core/compat/index.ts';
import { describeClient, ordered, silence, summaryLine, verdict, type GateReport } from './gate-report.ts';

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
