import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, ApiKeyStore } from '../../../kernel/ports/index.ts';
import type { Principal, Role } from '../../../kernel/ports/principal.ts';

const keyPattern = /^vk_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;
/** Every role a key may hold. */
const roles: readonly Role[] = ['read', 'write', 'admin'];

/**
 * SHA-256 of a key, hex. A fast hash is right here: keys are 256-bit random, not passwords.
 *
 * @internal exported for the tests
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * Check a presented key against the store: by id, then a constant-time hash comparison.
 * Revoked, unknown and malformed keys all answer `undefined`.
 */
export async function verifyApiKey(options: {
  store: ApiKeyStore;
  key: string;
  /** `hashKey(key)`, when the caller has it already. */ digest?: string;
}): Promise<Principal | undefined> {
  const match = keyPattern.exec(options.key);
  if (!match) return undefined;
  const record = await options.store.find(`key_${match[1]}`);
  const presented = Buffer.from(options.digest ?? hashKey(options.key), 'hex');
  const stored = Buffer.from(record?.hash ?? '0'.repeat(64), 'hex');
  const equal = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!record || !equal || record.revokedAt !== null) return undefined;
  return {
    id: record.id,
    roles: new Set(record.roles.filter(isRole)),
    kind: 'api-key',
    ...(record.clientId ? { clientId: record.clientId } : {}),
  };
}

/** Create and store a key, returning the secret once. */
export async function createApiKey(options: {
  store: ApiKeyStore;
  name: string;
  roles: Role[];
  contact?: string;
  clientId?: string;
  now: number;
}): Promise<{ record: ApiKeyRecord; key: string }> {
  // 64 bits of id and 256 bits of secret; only the hash is ever stored.
  const id = randomBytes(8).toString('hex');
  const key = `vk_${id}.${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    id: `key_${id}`,
    name: options.name,
    roles: [...new Set(options.roles)],
    contact: options.contact ?? null,
    hash: hashKey(key),
    createdAt: options.now,
    revokedAt: null,
    ...(options.clientId ? { clientId: options.clientId } : {}),
  };
  await options.store.insert(record);
  return { record, key };
}

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}
