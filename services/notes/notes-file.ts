// Reading a notes file safely. The file beside a bundle is looked for on every notes call, under a
// name anyone who wrote the bundle folder could have chosen: a FIFO there blocked the read forever,
// and a multi-gigabyte file was read (and parsed) on every call (issue #28). So: opened without
// blocking, checked to be a regular file no larger than a notes file can be, and its parse cached
// by identity, mtime and size, so an unchanged file is read once.
import { constants, promises as fs } from 'node:fs';
import { notesRequestMaxBytes } from '../../contract/limits.ts';
import { notesSchema } from '../../contract/index.ts';
import type { Notes } from '../../analysis/report/notes.ts';

/** A notes file is never larger than the largest save the format allows (contract/limits.ts). */
export const NOTES_FILE_MAX_BYTES = notesRequestMaxBytes();

/** Parses a notes file's text; undefined when it is not a valid notes document. */
export function parseNotes(text: string): Notes | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = notesSchema.safeParse(v);
  return r.success ? (r.data as Notes) : undefined;
}

export interface NotesRead {
  /** The file's text; undefined when it is missing, not a regular file, too large or unreadable. */
  text?: string;
  notes?: Notes;
}

interface CacheEntry {
  key: string;
  read: NotesRead;
}

/** Reads notes files; remembers each file's parse until the file changes. */
export class NotesFileReader {
  private cache = new Map<string, CacheEntry>();

  constructor(private readonly maxBytes = NOTES_FILE_MAX_BYTES) {}

  async read(file: string): Promise<NotesRead> {
    let fh: fs.FileHandle;
    try {
      // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
      fh = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      this.cache.delete(file);
      return {};
    }
    try {
      const st = await fh.stat();
      if (!st.isFile() || st.size > this.maxBytes) {
        this.cache.delete(file);
        return {};
      }
      const key = `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
      const hit = this.cache.get(file);
      if (hit && hit.key === key) return hit.read;
      const text = await fh.readFile('utf8');
      const read: NotesRead = { text, notes: parseNotes(text) };
      this.cache.set(file, { key, read });
      return read;
    } catch {
      return {};
    } finally {
      await fh.close().catch(() => undefined);
    }
  }
}
