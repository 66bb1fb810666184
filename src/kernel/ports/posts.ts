import type { Page, PageOptions } from './users.ts';

/** A stored post. */
export interface PostRecord {
  id: number;
  userId: number;
  title: string;
  body: string;
  createdAt: string;
  /** The owner of its user, who alone (with admins) sees it. */
  clientId: string | null;
}

/** The service's port for posts, always reached through their user. */
export interface PostStore {
  list(options: PageOptions & { userId: number }): Promise<Page<PostRecord>>;
  get(options: { userId: number; postId: number }): Promise<PostRecord | undefined>;
  /** Undefined when the user does not exist. The post takes its user's owner. */
  create(options: { userId: number; title: string; body: string; at: string }): Promise<PostRecord | undefined>;
  delete(options: { userId: number; postId: number }): Promise<boolean>;
}
