import { randomUUID } from 'node:crypto';
import type { ChangeListener } from '../ports/index.ts';

/** The subscriber registry every change-feed adapter shares. */
export interface ChangeListeners {
  /** This process's id: messages it sent come back over the transport and are skipped. */
  origin: string;
  subscribe(topic: string, listener: ChangeListener): () => void;
  /** Call the topic's listeners; a throwing listener does not stop the others. */
  emit(topic: string): void;
  /** Call every listener once: after a reconnect, when messages may have been missed. */
  emitAll(): void;
  /** A message from the transport: `{"topic":…,"origin":…}`; our own echoes and junk are ignored. */
  receive(payload: string): void;
  /** Call the topic's listeners here, then `send` the message; a failed send is logged, left to the reconcile. */
  publish(topic: string, send: (payload: string) => Promise<unknown> | undefined): Promise<void>;
}

export function createChangeListeners(
  options: { log?: { warn(obj: object, msg: string): void } } = {},
): ChangeListeners {
  const origin = randomUUID();
  const byTopic = new Map<string, Set<ChangeListener>>();
  const call = (listener: ChangeListener) => {
    try {
      listener();
    } catch (error) {
      options.log?.warn({ err: error }, 'change listener failed');
    }
  };
  const emit = (topic: string) => {
    for (const listener of byTopic.get(topic) ?? []) call(listener);
  };
  return {
    origin,
    subscribe(topic, listener) {
      const set = byTopic.get(topic) ?? new Set();
      set.add(listener);
      byTopic.set(topic, set);
      return () => void set.delete(listener);
    },
    emit,
    emitAll: () => {
      for (const set of byTopic.values()) for (const listener of set) call(listener);
    },
    receive(payload) {
      try {
        const message = JSON.parse(payload) as { topic?: unknown; origin?: unknown };
        if (typeof message.topic === 'string' && message.origin !== origin) emit(message.topic);
      } catch {
        // Not ours: another program on the channel. Nothing to reload.
      }
    },
    async publish(topic, send) {
      emit(topic);
      await send(JSON.stringify({ topic, origin }))?.catch((error: unknown) => {
        options.log?.warn({ err: error, topic }, 'change not sent; other instances pick it up at their next reconcile');
      });
    },
  };
}
