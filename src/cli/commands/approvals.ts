import type { Static } from '@sinclair/typebox';
import type { approval } from '../../loop/management/approvals/approval-routes.ts';
import { escapeControls } from '../../core/text/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { flags, readLine, readString, UsageError } from '../command.ts';
import { defineManagementCommand, revokedCell, revokedToo } from '../management-client.ts';

type ApprovalRow = Static<ReturnType<typeof approval>>;

/** `versionary approvals approve|list|revoke`: accept a breaking change by fingerprint, with an audit trail. */
export const command = defineManagementCommand<ApprovalRow>({
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
  options: flags('reason expires all?'),
  usage: 'approve <fingerprint> | list | revoke <id>',
  actions: {
    approve: {
      needs: ['approve needs a fingerprint'],
      call: 'POST /approvals',
      body: ([fingerprint], values) => {
        const reason = readLine(
          values,
          'reason',
          'approve needs --reason: the audit trail says why the break is accepted',
        );
        const expires = readString(values, 'expires');
        if (expires !== undefined && parseIsoInstant(expires) === undefined)
          throw new UsageError(`--expires must be an ISO 8601 date or instant, got "${expires}"`);
        return { fingerprint, reason, ...(expires === undefined ? {} : { expiresAt: expires }) };
      },
      text: (row) => describe(row, false),
    },
    list: { call: 'GET /approvals', query: revokedToo },
    revoke: {
      needs: ['revoke needs an approval id'],
      call: 'DELETE /approvals/{0}',
      text: (row) => describe(row, true),
    },
  },
  extra: ['takes no argument'],
  strictFormat: true,
  columns: {
    id: 'id',
    fingerprint: 'fingerprint',
    'approved by': 'approvedBy',
    'approved at': 'approvedAt',
    expires: 'expiresAt',
    revoked: revokedCell,
    reason: 'reason',
  },
  empty: 'No approvals.\n',
});

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

function printable(row: ApprovalRow): ApprovalRow {
  const entries = Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? escapeControls(v) : v]);
  return Object.fromEntries(entries) as ApprovalRow;
}
