import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { GateWaiver } from '../../core/compat/index.ts';
import { isSingleLineText, singleLineTextRule } from '../../core/text/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { UsageError } from '../io.ts';
import { parseText } from '../parse-text.ts';

/**
 * Read a waivers file (JSON or YAML): `{ waivers: [{ fingerprint, reason, expires? }] }`, each
 * `expires` an ISO 8601 date or instant. A malformed file is a usage error (exit 2), never ignored.
 */
export async function readWaivers(path: string, cwd: string): Promise<GateWaiver[]> {
  const file = resolve(cwd, path);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--waivers: cannot read ${path}: ${error.code ?? error.message}`);
  });
  const parsed = parseText({ text, name: path }) as { waivers?: unknown } | null;
  if (!Array.isArray(parsed?.waivers)) throw new UsageError(`--waivers: ${path} has no "waivers" list`);
  return parsed.waivers.map((w: unknown, i: number) => {
    const { fingerprint, reason, expires } = (w ?? {}) as Record<string, unknown>;
    const where = `${path}: waivers[${i}]`;
    if (typeof fingerprint !== 'string' || !/^[0-9a-f]{16}$/.test(fingerprint))
      throw new UsageError(`${where}.fingerprint must be the 16 hex digits diff prints`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new UsageError(`${where}.reason must say why`);
    // Reasons are printed in reports and CI logs: a `\r` or terminal escape could forge a row there.
    if (!isSingleLineText(reason)) throw new UsageError(`${where}.reason ${singleLineTextRule}`);
    if (expires === undefined) return { fingerprint, reason };
    // YAML reads an unquoted date as a Date: accept it as the date it spells.
    const text = expires instanceof Date ? expires.toISOString() : expires;
    const at = typeof text === 'string' ? parseIsoInstant(text) : undefined;
    if (at === undefined) throw new UsageError(`${where}.expires must be an ISO 8601 date or instant`);
    return { fingerprint, reason, expires: at };
  });
}
