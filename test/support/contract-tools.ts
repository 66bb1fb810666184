import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The project root, where `.spectral.yaml` and `node_modules` are. */
export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const preload = pathToFileURL(join(projectRoot, 'test/support/no-network.mjs')).href;

/** What one run of an external tool printed, and every network connection it tried. */
export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
  networkAttempts: string[];
}

/**
 * Run an external tool's CLI (a dev dependency) under Node with the no-network preload, also in
 * any child process it starts, and telemetry and update checks turned off (unless `quiet` is
 * false, to check that the project's own config does that alone).
 */
export async function runTool(options: {
  script: string;
  args: string[];
  cwd?: string;
  timeoutMs?: number;
  env?: Record<string, string>;
  quiet?: boolean;
}): Promise<ToolRun> {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-tool-'));
  const log = join(dir, 'network.log');
  writeFileSync(log, '');
  try {
    return await new Promise<ToolRun>((done, fail) => {
      execFile(
        process.execPath,
        [options.script, ...options.args],
        {
          cwd: options.cwd ?? projectRoot,
          timeout: options.timeoutMs ?? 120_000,
          maxBuffer: 64 * 1024 * 1024,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: dir,
            NODE_OPTIONS: `--import=${preload}`,
            NO_NETWORK_LOG: log,
            NO_COLOR: '1',
            ...(options.quiet === false
              ? {}
              : {
                  REDOCLY_TELEMETRY: 'off',
                  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
                  SCARF_ANALYTICS: 'false',
                  DO_NOT_TRACK: '1',
                }),
            ...options.env,
          },
        },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') return fail(error);
          done({
            code: typeof error?.code === 'number' ? error.code : 0,
            stdout,
            stderr,
            networkAttempts: readFileSync(log, 'utf8').split('\n').filter(Boolean),
          });
        },
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
