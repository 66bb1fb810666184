import { spawn } from 'node:child_process';
import type { CliRun } from './cli-harness.ts';

const entry = new URL('./cli-entry.ts', import.meta.url).pathname;
// Resolved here, not from the working directory the CLI runs in (a temporary folder).
const tsx = import.meta.resolve('tsx');

/**
 * Run `versionary <args>` as its own process, as CI does, from the sources (`node --import tsx`).
 * Asynchronous, so a service started in this test process keeps answering the CLI's requests.
 */
export function runCliProcess(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, entry, ...args], {
      cwd: options.cwd,
      env: { ...process.env, VERSIONARY_KEY: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
