import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

const entry = new URL('./cli-entry.ts', import.meta.url).pathname;
const tsx = import.meta.resolve('tsx');

/** A JSON-RPC answer as it comes, line by line, from the process's stdout. */
export interface RpcAnswer {
  jsonrpc: '2.0';
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A `versionary` command that serves on stdio (`versionary mcp`), as its own process, spoken to in raw JSON-RPC lines. */
export interface StdioPeer {
  request(method: string, params?: Record<string, unknown>): Promise<RpcAnswer>;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Every line written to stdout that was not an answer to a request (nothing, when all is well). */
  strayLines(): string[];
  /** Write `line` to stdin as it is, JSON or not. */
  sendRaw(line: string): void;
  /**
   * Resolve with the `count`th stray line, once it is written; rejects if the process exits first,
   * or after 10 s without it (a line the process drops must fail the test, not hang it).
   */
  strayLine(count: number): Promise<string>;
  stderr(): string;
  /** Close stdin, then wait for the exit. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
  child: ChildProcess;
}

/** Spawn `versionary <args>` from the sources, with `env` beside the test's (VERSIONARY_KEY emptied unless given). */
export function spawnStdioPeer(args: string[], env: Record<string, string> = {}): StdioPeer {
  const child = spawn(process.execPath, ['--import', tsx, entry, ...args], {
    env: { ...process.env, VERSIONARY_KEY: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  let buffer = '';
  const stray: string[] = [];
  const strayWaiters: Array<() => void> = [];
  const waiting = new Map<number, (answer: RpcAnswer) => void>();
  child.stderr!.on('data', (d) => (stderr += String(d)));
  child.stdout!.on('data', (d) => {
    buffer += String(d);
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      let answer: RpcAnswer | undefined;
      try {
        answer = JSON.parse(line) as RpcAnswer;
      } catch {
        answer = undefined;
      }
      const resolve = answer && waiting.get(answer.id);
      if (answer && resolve) {
        waiting.delete(answer.id);
        resolve(answer);
      } else {
        stray.push(line);
        for (const wake of strayWaiters.splice(0)) wake();
      }
    }
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let next = 1;
  const write = (message: object) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    child,
    exited,
    request(method, params) {
      const id = next++;
      const answer = new Promise<RpcAnswer>((resolve, reject) => {
        waiting.set(id, resolve);
        void exited.then(() => reject(new Error(`versionary mcp exited before answering ${method}:\n${stderr}`)));
      });
      write({ id, method, ...(params ? { params } : {}) });
      return answer;
    },
    notify: (method, params) => void write({ method, ...(params ? { params } : {}) }),
    strayLines: () => stray,
    sendRaw: (line) => void child.stdin!.write(`${line}\n`),
    strayLine: async (count) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no line ${count} on stdout within 10 s: ${stray.join('\n')}`)),
          10_000,
        );
      });
      try {
        while (stray.length < count) {
          const written = new Promise<void>((resolve) => strayWaiters.push(resolve));
          await Promise.race([
            written,
            late,
            exited.then(() => {
              throw new Error(`versionary mcp exited before writing line ${count}:\n${stderr}`);
            }),
          ]);
        }
        return stray[count - 1]!;
      } finally {
        clearTimeout(timer);
      }
    },
    stderr: () => stderr,
    close: async () => {
      child.stdin!.end();
      return exited;
    },
  };
}
