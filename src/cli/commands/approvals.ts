import { escapeControls, singleLineTextProblem } from '../../core/text/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { defineCommand, readString, type OptionValues, UsageError } from '../command.ts';
import { formatTable, managementOptions, runRecordAction } from '../management-client.ts';

interface ApprovalRow {
  id: string;
  fingerprint: string;
  reason: string;
  approvedBy: string;
  approvedAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}
const actions = ['approve', 'list', 'revoke'] as const;

/** `versionary approvals approve|list|revoke`: accept a breaking change by fingerprint, with an audit trail. */
export const approvalsCommand = defineCommand({
  name: 'approvals',
  help: `Usage: npx versionary approvals approve <fingerprint> --reason TEXT [--expires ISO]
       npx versionary approvals list [--all]
       npx versionary approvals revoke <id>
       (each also takes --server URL --key KEY and --format text|json)

An approval accepts the change with that fingerprint (as versionary diff prints it): diff --server
then reports it Approved, naming who approved it and why, instead of Broken. list shows the
approvals in force; --all adds revoked and expired ones (the audit trail). revoke withdraws one and
keeps the record, with who revoked it and when.

Without --server the command works on DATABASE_URL (default sqlite:./data/versionary.db) and the
approver is recorded as "admin"; with --server it calls the management API with an admin key
(--key or VERSIONARY_KEY), recorded as that key's name and id.

Exit codes: 0 done, 1 refused (bad fingerprint or date, unknown approval), 2 could not run.`,
  options: {
    ...managementOptions,
    reason: { type: 'string' },
    expires: { type: 'string' },
    all: { type: 'boolean' },
  },
  positionals: { min: 1, max: 2, names: 'approve <fingerprint> | list | revoke <id>' },
  run: (input) =>
    runRecordAction(input, {
      actions,
      missing: { approve: 'approve needs a fingerprint', revoke: 'revoke needs an approval id' },
      toRequest,
      table,
      describe,
    }),
});

function toRequest(action: string, arg: string | undefined, values: OptionValues) {
  if (action === 'list')
    return { method: 'GET', path: values.all === true ? '/approvals?include=revoked' : '/approvals' };
  if (action === 'revoke') return { method: 'DELETE', path: `/approvals/${encodeURIComponent(arg!)}` };
  const reason = readString(values, 'reason');
  if (!reason) throw new UsageError('approve needs --reason: the audit trail says why the break is accepted');
  const problem = singleLineTextProblem(reason, '--reason');
  if (problem) throw new UsageError(problem);
  const expires = readString(values, 'expires');
  if (expires !== undefined && parseIsoInstant(expires) === undefined)
    throw new UsageError(`--expires must be an ISO 8601 date or instant, got "${expires}"`);
  return {
    method: 'POST',
    path: '/approvals',
    body: { fingerprint: arg, reason, ...(expires === undefined ? {} : { expiresAt: expires }) },
  };
}

// Rows come from the server: a stored `\r` or terminal escape is printed as text, never obeyed.
function describe(row: ApprovalRow, revoked: boolean): string {
  const a = printable(row);
  const lines = [
    `${revoked ? 'Revoked' : 'Approved'} ${a.fingerprint} (${a.id})`,
    `  approved by ${a.approvedBy} at ${a.approvedAt}${a.expiresAt ? `, until ${a.expiresAt}` : ''}`,
    `  reason: ${a.reason}`,
  ];
  if (a.revokedAt) lines.push(`  revoked by ${a.revokedBy} at ${a.revokedAt}`);
  return `${lines.join('\n')}\n`;
}

function table(rows: ApprovalRow[]): string {
  if (rows.length === 0) return 'No approvals.\n';
  const head = ['id', 'fingerprint', 'approved by', 'approved at', 'expires', 'revoked', 'reason'];
  const lines = rows.map((r) => [
    r.id,
    r.fingerprint,
    r.approvedBy,
    r.approvedAt,
    r.expiresAt ?? '-',
    r.revokedAt ? `${r.revokedAt} by ${r.revokedBy}` : '-',
    r.reason,
  ]);
  return formatTable({ head, rows: lines });
}

function printable(row: ApprovalRow): ApprovalRow {
  const entries = Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? escapeControls(v) : v]);
  return Object.fromEntries(entries) as ApprovalRow;
}
