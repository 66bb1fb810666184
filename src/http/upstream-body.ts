import { Readable } from 'node:stream';

/**
 * The client's request body as undici sends it upstream: a stream of its own in front of the
 * client's, so that what undici does to it never reaches the client's connection. Undici destroys
 * the body it sends once the upstream has answered before reading it all, or failed; had that
 * been the client's stream, its socket would be reset and the answer lost (`EPIPE`). The client's
 * body stays readable instead, and an answer given before it ended goes out once the lingering
 * close has drained it (`lingering-close.ts`), as the gateway's own early answers do.
 */
export class UpstreamBody extends Readable {
  #source: Readable;
  #ended = false;
  /** No longer reading the client's body: stopped, or destroyed. */
  #detached = false;

  constructor(source: Readable) {
    super();
    this.#source = source;
    source.on('data', this.#onData);
    source.once('end', this.#onEnd);
    source.once('error', this.#onGone);
    source.once('close', this.#onGone);
    // Nothing flows until undici asks for the body.
    source.pause();
  }

  override _read(): void {
    if (!this.#detached) this.#source.resume();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.stop();
    done(error);
  }

  #onData = (chunk: Buffer): void => {
    if (!this.push(chunk)) this.#source.pause();
  };

  #onEnd = (): void => {
    this.#ended = true;
    this.push(null);
  };

  /** The client went away before its body ended: the upstream's call is aborted with it. */
  #onGone = (error?: Error): void => {
    if (!this.#ended) this.destroy(error ?? new Error('The client closed the connection.'));
  };

  /** Send no more of the body: the upstream has answered and wants no more. The client's body is left to drain. */
  stop(): void {
    if (this.#detached) return;
    this.#detached = true;
    this.#source.off('data', this.#onData);
    this.#source.off('end', this.#onEnd);
    this.#source.off('error', this.#onGone);
    this.#source.off('close', this.#onGone);
    // Left paused, unless the lingering close already reads the rest: it drains it within its bounds.
    if (this.#source.listenerCount('data') === 0) this.#source.pause();
  }
}
