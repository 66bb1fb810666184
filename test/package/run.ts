import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Run a command to completion; reject with its output when it fails. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${options.cwd}:\n${stdout}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/**
 * Pack the library as it would be published, from the compiled dist/ that `npm test` builds
 * first. Scripts are skipped so the pack does not rebuild dist/ under tests that are reading it.
 */
export async function packLibrary(destination: string): Promise<string> {
  if (!existsSync(join(repo, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: repo,
  });
  const [info] = JSON.parse(stdout) as Array<{ filename: string; size: number }>;
  return join(destination, info!.filename);
}

/** Start a Node program and resolve with its base URL once it prints `listening on <url>`. */
export function startListening(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ base: match[1]!, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}
