// Where notes live and how they are saved. A bundle's notes are one JSON file (README "Notes file"):
// beside the bundle (`<bundle>.hnsight-notes.json`) when such a file exists there and names the same
// bundle hash, otherwise `<dataDir>/notes/<hash>.json`. Every save
//   1. is refused when its base revision is not the stored one (two windows never overwrite each other,
//      nor two processes: the check and the write hold a lock file across processes, file-lock.ts),
//   2. copies the stored file to `<file>.bak` (written atomically),
//   3. writes the new file atomically: a temp file beside it, fsync, rename, fsync of the folder,
// so a crash or a kill at any moment leaves the old or the new notes whole, and the previous revision
// in `.bak`. Undo/redo is the window's; the store keeps the latest.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { withFileLock } from './file-lock.ts';
import { notesSchema } from '../../contract/index.ts';
import { NotesFileReader } from './notes-file.ts';

export { parseNotes } from './notes-file.ts';
import { emptyNotes, type Notes } from '../../analysis/report/notes.ts';

export class StaleNotesError extends Error {
  override name = 'StaleNotesError';
  constructor(
    readonly current: number,
    readonly base: number,
  ) {
    super(`stale: the notes were saved elsewhere (revision ${current}, this edit is based on ${base}); reload them and apply the edit again`);
  }
}

export interface NotesBundle {
  hash: string;
  location: string;
  hostName?: string;
  /** false: the bundle is not (only) a path on disk — pasted texts — so there is no "beside it" to look. */
  beside?: boolean;
}

export const BESIDE_SUFFIX = '.hnsight-notes.json';

export class NotesStore {
  private locks = new Map<string, Promise<unknown>>();
  /** Every notes file is read through this: a regular file of a notes file's size, parsed once per change. */
  private readonly files = new NotesFileReader();

  constructor(private readonly dataDir: string) {}

  /** The file a bundle's notes are kept in. */
  async fileFor(b: NotesBundle): Promise<string> {
    const inData = path.join(this.dataDir, 'notes', `${b.hash.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
    if (b.beside === false) return inData;
    const beside = `${b.location.replace(/[\\/]+$/, '')}${BESIDE_SUFFIX}`;
    const there = (await this.files.read(beside)).notes;
    if (there && there.bundle.hash === b.hash) return beside;
    return inData;
  }

  /** The stored notes; empty notes at revision 0 when there are none (a torn or invalid file falls back to `.bak`). */
  async get(b: NotesBundle): Promise<Notes> {
    const file = await this.fileFor(b);
    const n = (await this.files.read(file)).notes ?? (await this.files.read(`${file}.bak`)).notes;
    if (!n) return emptyNotes({ hash: b.hash, location: b.location, ...(b.hostName ? { hostName: b.hostName } : {}) });
    return { ...n, bundle: { ...n.bundle, location: b.location, ...(b.hostName ? { hostName: b.hostName } : {}) } };
  }

  /** Saves a new revision; throws StaleNotesError when `baseRevision` is not the stored revision. */
  async save(b: NotesBundle, edit: Pick<Notes, 'title' | 'summary' | 'notes' | 'traces'>, baseRevision: number): Promise<{ revision: number; file: string }> {
    const file = await this.fileFor(b);
    await fs.mkdir(path.dirname(file), { recursive: true });
    return this.serial(file, () => withFileLock(`${file}.lock`, async () => {
      const { text: currentText, notes: current } = await this.files.read(file);
      const bak = current ? undefined : (await this.files.read(`${file}.bak`)).notes;
      const revision = current?.revision ?? bak?.revision ?? 0;
      if (baseRevision !== revision) throw new StaleNotesError(revision, baseRevision);
      const next: Notes = {
        schema: 1,
        bundle: { hash: b.hash, location: b.location, ...(b.hostName ? { hostName: b.hostName } : {}) },
        title: edit.title,
        summary: edit.summary,
        notes: edit.notes,
        traces: edit.traces,
        revision: revision + 1,
      };
      const checked = notesSchema.safeParse(next);
      if (!checked.success) throw new Error(`notes do not fit the schema: ${checked.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      if (current && currentText !== undefined) await writeFileAtomic(`${file}.bak`, currentText);
      await writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n');
      await this.sweep(file);
      return { revision: next.revision, file };
    }));
  }

  /** Removes temp files a killed writer left behind (older than a minute). */
  private async sweep(file: string): Promise<void> {
    const dir = path.dirname(file);
    const prefix = `.${path.basename(file)}.`;
    try {
      for (const name of await fs.readdir(dir)) {
        if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
        const p = path.join(dir, name);
        const st = await fs.stat(p).catch(() => undefined);
        if (st && Date.now() - st.mtimeMs > 60_000) await fs.rm(p, { force: true });
      }
    } catch {
      // best effort
    }
  }

  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return run;
  }
}
