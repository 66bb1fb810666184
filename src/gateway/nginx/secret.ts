import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder (mode 0700) of the push socket and the shared secret: no other local user reaches the socket nginx makes 0666. */
export function privateDirOf(out: string): string {
  return join(out, 'private');
}

export function secretFileOf(out: string): string {
  return join(privateDirOf(out), 'secret');
}

/** What a secret file must hold: 32 random bytes or more, base64url (what {@link ensureSecret} writes). */
const secretShape = /^[A-Za-z0-9_-]{43,512}$/;

/** The secret in `path`, written first when there is none: a render keeps the one it finds, so its sharers stay in step. */
export function ensureSecret(path: string): string {
  if (!existsSync(path)) {
    const dir = dirname(path);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  }
  const secret = readFileSync(path, 'utf8').trim();
  if (!secretShape.test(secret))
    throw new Error(
      `nginx's shared secret in ${path} is not 43 to 512 base64url characters: delete the file and render again`,
    );
  // Copied in with a laxer mode: only its owner reads it (a file of another owner, a mounted secret, stays as it is).
  const { mode, uid } = statSync(path);
  if ((mode & 0o077) !== 0 && uid === process.getuid?.()) chmodSync(path, 0o600);
  return secret;
}

/** Whether `given` is the secret, compared in constant time (digests first: the lengths differ too). */
export function isSecret(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
