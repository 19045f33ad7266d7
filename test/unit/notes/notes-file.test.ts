// The notes file beside a bundle is read safely (services/notes/notes-file.ts): a FIFO under its name
// does not block, a file larger than any notes file is not read, and an unchanged file is read once.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NotesFileReader, NOTES_FILE_MAX_BYTES } from '../../../services/notes/notes-file.ts';
import { NotesStore, BESIDE_SUFFIX } from '../../../services/notes/index.ts';

const notes = (title: string) => JSON.stringify({ schema: 1, bundle: { hash: 'h1', location: '/x' }, title, summary: '', notes: [], traces: [], revision: 4 });

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`blocked for ${ms} ms`)), ms))]);

describe('reading a notes file', () => {
  it('does not block on a FIFO named like the beside-notes file, and falls back to the data folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-notes-fifo-'));
    const bundle = path.join(dir, 'node-a');
    const fifo = bundle + BESIDE_SUFFIX;
    const r = spawnSync('mkfifo', [fifo]);
    expect(r.status, 'mkfifo').toBe(0);
    const store = new NotesStore(path.join(dir, 'data'));
    const b = { hash: 'h1', location: bundle };
    expect(await within(store.fileFor(b), 3_000)).toBe(path.join(dir, 'data', 'notes', 'h1.json'));
    expect((await within(store.get(b), 3_000)).revision).toBe(0);
  });

  it('does not read a file larger than any notes file can be', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-notes-huge-'));
    const file = path.join(dir, 'huge.json');
    writeFileSync(file, notes('t'));
    // Sparse: no disk used, but its size says more than a notes file may hold.
    truncateSync(file, NOTES_FILE_MAX_BYTES + 1);
    expect(await new NotesFileReader().read(file)).toEqual({});
    // The same limit, small, on a file that is really read otherwise.
    const small = path.join(dir, 'small.json');
    writeFileSync(small, notes('t'));
    expect(await new NotesFileReader(10).read(small)).toEqual({});
    expect((await new NotesFileReader().read(small)).notes?.title).toBe('t');
  });

  it('reads an unchanged file once, and again when it changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-notes-cache-'));
    const file = path.join(dir, 'n.json');
    writeFileSync(file, notes('aaaa'));
    // A whole-second time, so setting it again later gives exactly the same one.
    const t = new Date(Math.floor(statSync(file).mtimeMs / 1000) * 1000);
    utimesSync(file, t, t);
    const reader = new NotesFileReader();
    expect((await reader.read(file)).notes?.title).toBe('aaaa');
    // Same inode, size and time: the reader answers from what it read (it did not read again).
    writeFileSync(file, notes('bbbb'));
    utimesSync(file, t, t);
    expect((await reader.read(file)).notes?.title).toBe('aaaa');
    // A change of time (or size) is read.
    const later = new Date(t.getTime() + 5_000);
    utimesSync(file, later, later);
    expect((await reader.read(file)).notes?.title).toBe('bbbb');
  });
});
