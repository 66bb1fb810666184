import { open, stat } from 'node:fs/promises';

/** A file's identity and size: the device and inode as decimal text (they may pass 2^53). */
export interface FileState {
  device: string;
  inode: string;
  size: number;
  /** Last modified, epoch ms. */
  mtimeMs: number;
}

/** The file's identity and size, or undefined when there is none at `path`. */
export async function fileState(path: string): Promise<FileState | undefined> {
  try {
    const s = await stat(path, { bigint: true });
    return { device: String(s.dev), inode: String(s.ino), size: Number(s.size), mtimeMs: Number(s.mtimeMs) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The complete lines of one read: their texts, and the offset just past the last newline. */
export interface LineChunk {
  lines: string[];
  /** Where the next read starts: past the last complete line (unchanged when none was complete). */
  end: number;
  /** A line longer than a whole chunk was skipped, up to `end`. */
  overlong: boolean;
}

/**
 * Read the complete lines of `path` from `offset`, at most `maxBytes` of them; a last line without
 * its newline is left for the next read (nginx may be writing it). A line longer than `maxBytes`
 * cannot be one of the format's: it is reported and skipped once complete.
 */
export async function readLines(path: string, offset: number, maxBytes: number): Promise<LineChunk> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, offset);
    const last = buffer.lastIndexOf(0x0a, bytesRead - 1);
    if (last < 0) {
      // A full chunk and no newline: an overlong line, dropped up to its newline once it has one;
      // a short one is still being written.
      if (bytesRead < maxBytes) return { lines: [], end: offset, overlong: false };
      for (let at = offset + bytesRead; ; at += maxBytes) {
        const more = await handle.read(buffer, 0, maxBytes, at);
        const newline = buffer.subarray(0, more.bytesRead).indexOf(0x0a);
        if (newline >= 0) return { lines: [], end: at + newline + 1, overlong: true };
        if (more.bytesRead < maxBytes) return { lines: [], end: offset, overlong: false };
      }
    }
    const text = buffer.toString('utf8', 0, last);
    return { lines: text.split('\n'), end: offset + last + 1, overlong: false };
  } finally {
    await handle.close();
  }
}

/** Whether the byte before `offset` is a newline: an offset that is not at a line's start means the file was replaced in place. */
export async function atLineStart(path: string, offset: number): Promise<boolean> {
  if (offset === 0) return true;
  const handle = await open(path, 'r');
  try {
    const byte = Buffer.alloc(1);
    const { bytesRead } = await handle.read(byte, 0, 1, offset - 1);
    return bytesRead === 1 && byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
