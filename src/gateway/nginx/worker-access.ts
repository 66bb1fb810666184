import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Why nginx's workers cannot reach the rendered folder, in one line, or `undefined` when they can.
 * Run as root, nginx's workers run as `nobody` (the rendered nginx.conf sets no `user`): every
 * folder on the way must let others through, and the folder itself let them read, or every call
 * is nginx's 500. Run as another user, the workers are that user, who wrote the files.
 */
export function workerAccessProblem(out: string, uid = process.getuid?.()): string | undefined {
  if (uid !== 0) return undefined;
  for (let dir = out; ; dir = dirname(dir)) {
    const { mode } = statSync(dir);
    const needed = dir === out ? 0o005 : 0o001;
    if ((mode & needed) !== needed)
      return `nginx's workers run as nobody and cannot ${dir === out ? 'read' : 'pass through'} ${dir} (mode ${(mode & 0o777).toString(8)}): chmod o+${dir === out ? 'rx' : 'x'} ${dir}, or render into a folder they can reach`;
    if (dirname(dir) === dir) return undefined;
  }
}
