import { readFileSync } from 'node:fs';
import { createApiKey, isRole } from '../../loop/access/auth/api-keys.ts';
import { importServiceModule } from '../../compose/load-service.ts';
import { loadConfig } from '../../loop/settings.ts';
import { type CliCommand, flags, readLine, readString, ExitCode, UsageError } from '../command.ts';

/** `versionary keys create`: create an API key in the database and print it once. */
export const command: CliCommand = {
  name: 'keys',
  help: `Usage: npx versionary keys create --name NAME --roles read[,write][,admin] [--contact EMAIL] [--client CLIENT_ID]

Creates the key in DATABASE_URL (default sqlite:./data/versionary.db) and prints it once; only
its hash is stored. Roles: read (safe methods), write (POST, PUT, PATCH, DELETE), admin (the
management API and everything else). With --client the key acts for that client (see
"npx versionary clients"): its usage is counted for it and it sees only that client's resources.

Exit codes: 0 created, 2 could not run.`,
  options: flags('name roles contact client'),
  positionals: { min: 1, max: 1, names: 'create' },
  async run({ values, positionals, io }) {
    if (positionals[0] !== 'create') throw new UsageError(`unknown action "${positionals[0]}": use create`);
    const name = readString(values, 'name');
    if (!name || name.length > 100) throw new UsageError('--name is required (1 to 100 characters)');
    readLine(values, 'name'); // one line of text: printed in tables and logs
    const roles = (readString(values, 'roles') ?? '')
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    if (roles.length === 0 || !roles.every(isRole))
      throw new UsageError('--roles takes a comma-separated list of read, write, admin');
    const contact = readString(values, 'contact');
    const clientId = readString(values, 'client');
    const config = loadConfig({ env: { ...io.env, LOG_LEVEL: 'silent' }, readFile: (p) => readFileSync(p, 'utf8') });
    const { openStorage } = await importServiceModule(() => import('../../loop/storage/open-storage.ts'), io.env ?? {});
    const storage = await openStorage(config.database);
    try {
      if (clientId !== undefined && !(await storage.clients.find(clientId)))
        throw new UsageError(`no client ${clientId.slice(0, 40)}: create it first (npx versionary clients create)`);
      const { record, key } = await createApiKey({
        store: storage.apiKeys,
        name,
        roles,
        ...(contact ? { contact } : {}),
        ...(clientId ? { clientId } : {}),
        now: io.now(),
      });
      io.stdout(`Created ${record.id} (${record.roles.join(', ')}). The key is shown only this once:\n\n  ${key}\n\n`);
      return ExitCode.Ok;
    } finally {
      await storage.close();
    }
  },
};
