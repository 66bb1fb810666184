/** One contact address of a client; `subscribed: false` once it has unsubscribed from notices. */
export interface ClientContact {
  email: string;
  subscribed: boolean;
}

/**
 * A webhook target of a client. The secret (`whsec_<base64>`, Standard Webhooks) is stored so
 * that messages can be signed; the management API shows it only in the response that created it.
 */
export interface ClientWebhook {
  id: string;
  url: string;
  secret: string;
}

/** A consumer of the API: who to tell when something it calls is deprecated. */
export interface Client {
  /** `cl_` followed by 16 hex digits. */
  id: string;
  name: string;
  contacts: ClientContact[];
  webhooks: ClientWebhook[];
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /**
   * The oldest version the client may call: its calls to older ones are refused (410
   * `VERSION_RETIRED_FOR_CLIENT`). Absent when it has none.
   */
  minimumVersion?: string;
}

/** One page of clients, in creation order. */
interface ClientPage {
  items: Client[];
  /** Opaque position after which the next page starts; null on the last page. */
  nextAfter: string | null;
}

/** The service's port for clients, their contacts and their webhooks. */
export interface ClientStore {
  insert(client: Client): Promise<void>;
  find(id: string): Promise<Client | undefined>;
  /** Several at once (unknown ids are left out), for joining clients onto usage rows. */
  findMany(ids: readonly string[]): Promise<Client[]>;
  /** Clients in creation order; `after` is a previous page's `nextAfter`. */
  list(options: { limit: number; after?: string }): Promise<ClientPage>;
  /** Every client's minimum version, for those that have one: client id → version. */
  minimumVersions(): Promise<Record<string, string>>;
  /** Replace name, contacts, webhooks and minimum version as one write. False when the client does not exist. */
  update(client: Client): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  /** Subscribe or unsubscribe one contact (email compared case-insensitively). False when no such contact. */
  setContactSubscribed(clientId: string, email: string, subscribed: boolean): Promise<boolean>;
}
