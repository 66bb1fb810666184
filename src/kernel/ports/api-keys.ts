/** A stored API key: the secret itself is never stored, only its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  roles: string[];
  contact: string | null;
  /** SHA-256 of the full key, hex. */
  hash: string;
  createdAt: number;
  revokedAt: number | null;
  /** The client the key belongs to, if any: its usage and resources are that client's. */
  clientId?: string;
}

export interface ApiKeyStore {
  insert(record: ApiKeyRecord): Promise<void>;
  find(id: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** True when a key was active and is now revoked. */
  revoke(options: { id: string; at: number }): Promise<boolean>;
  countActiveAdmins(): Promise<number>;
}
