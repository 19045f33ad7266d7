// Notes are saved atomically with a `.bak` of the previous revision, a stale revision is refused, a
// killed writer never leaves a torn file, and the backend serves them (getNotes, saveNotes, exportReport).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { NotesStore, StaleNotesError, parseNotes, bundleHash, BESIDE_SUFFIX } from '../../../services/notes/index.ts';
import { Backend } from '../../../services/backend/backend.ts';
import type { Notes } from '../../../analysis/report/notes.ts';
import type { LoadJob } from '../../../contract/index.ts';

const root = path.resolve(__dirname, '../../..');
const bundle = { hash: 'sha256:abc', location: '/bundles/node-a', hostName: 'node-a' };
const edit = (title: string): Pick<Notes, 'title' | 'summary' | 'notes' | 'traces'> => ({
  title,
  summary: '',
  notes: [{ id: 'n1', target: { kind: 'hop', ref: 'trace:10.244.1.5-10.96.0.10:53/udp#3' }, text: `note for ${title}`, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' }],
  traces: [{ srcIp: '10.244.1.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' }],
});
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'hnsight-notes-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('NotesStore', () => {
  it('starts empty, saves revisions, keeps the previous one in .bak', async () => {
    const store = new NotesStore(tmp());
    const empty = await store.get(bundle);
    expect(empty).toMatchObject({ schema: 1, revision: 0, notes: [], title: '' });
    const r1 = await store.save(bundle, edit('one'), 0);
    expect(r1.revision).toBe(1);
    expect(existsSync(`${r1.file}.bak`)).toBe(false);
    const r2 = await store.save(bundle, edit('two'), 1);
    expect(r2.revision).toBe(2);
    expect(parseNotes(readFileSync(`${r2.file}.bak`, 'utf8'))!.title).toBe('one');
    const got = await store.get(bundle);
    expect(got).toMatchObject({ title: 'two', revision: 2, bundle: { hash: bundle.hash, hostName: 'node-a' } });
    expect(got.notes[0].text).toBe('note for two');
  });

  it('refuses a stale base revision: two windows never overwrite each other', async () => {
    const store = new NotesStore(tmp());
    await store.save(bundle, edit('window A'), 0);
    await expect(store.save(bundle, edit('window B'), 0)).rejects.toBeInstanceOf(StaleNotesError);
    expect((await store.get(bundle)).title).toBe('window A');
    // Concurrent saves from one base: exactly one wins.
    const results = await Promise.allSettled([store.save(bundle, edit('x'), 1), store.save(bundle, edit('y'), 1)]);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1);
    expect((await store.get(bundle)).revision).toBe(2);
  });

  it('falls back to .bak when the file is not valid, and uses a notes file beside the bundle', async () => {
    const store = new NotesStore(tmp());
    await store.save(bundle, edit('one'), 0);
    const { file } = await store.save(bundle, edit('two'), 1);
    writeFileSync(file, '{"schema":1, "tit');
    expect((await store.get(bundle)).title).toBe('one');
    const dir = tmp();
    const loc = path.join(dir, 'node-b');
    const b = { ...bundle, location: loc };
    writeFileSync(`${loc}${BESIDE_SUFFIX}`, JSON.stringify({ schema: 1, bundle: { hash: bundle.hash, location: loc }, title: 'beside', summary: '', notes: [], traces: [], revision: 4 }));
    expect(await store.fileFor(b)).toBe(`${loc}${BESIDE_SUFFIX}`);
    expect((await store.get(b)).title).toBe('beside');
    await store.save(b, edit('beside 2'), 4);
    expect(parseNotes(readFileSync(`${loc}${BESIDE_SUFFIX}`, 'utf8'))!.revision).toBe(5);
  });

  it('survives kill -9 in the middle of writes: old or new content, never torn; the .bak exists', async () => {
    const dataDir = tmp();
    const store = new NotesStore(dataDir);
    const file = await store.fileFor(bundle);
    let last = 0;
    for (let round = 0; round < 6; round++) {
      const child = spawn(process.execPath, [path.join(__dirname, 'writer-child.mjs'), dataDir, bundle.hash], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += String(d)));
      // Kill once it has written a few revisions, at a moment that varies per round.
      await new Promise<void>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the writer exited by itself (${code})`)));
        const t = setInterval(() => {
          if (out.split('\n').filter(Boolean).length >= 2 + round) {
            clearInterval(t);
            setTimeout(() => resolve(), round * 3);
          }
        }, 2);
      });
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const acked = Math.max(0, ...out.split('\n').filter(Boolean).map(Number));
      const text = readFileSync(file, 'utf8');
      const n = parseNotes(text);
      expect(n, `round ${round}: the notes file must parse`).toBeDefined();
      // Every revision the writer reported done is on disk (or a newer one that was mid-report).
      expect(n!.revision).toBeGreaterThanOrEqual(acked);
      expect(n!.revision).toBeGreaterThanOrEqual(last);
      expect(n!.summary.startsWith(`revision ${n!.revision} `)).toBe(true);
      expect(n!.notes.every((x) => x.text.startsWith(`revision ${n!.revision} `))).toBe(true);
      expect(existsSync(`${file}.bak`)).toBe(true);
      // The previous revision — or, when the kill fell between the two renames, a copy of the current one.
      expect([n!.revision - 1, n!.revision]).toContain(parseNotes(readFileSync(`${file}.bak`, 'utf8'))!.revision);
      last = n!.revision;
    }
  }, 120_000);
});

describe('bundle hash', () => {
  it('is stable across copies and changes when a core file changes', async () => {
    const a = path.join(root, 'assets/demo/l2bridge-node');
    const copy = path.join(tmp(), 'copy');
    cpSync(a, copy, { recursive: true });
    const h = await bundleHash(a);
    expect(h).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await bundleHash(copy)).toBe(h);
    const routes = path.join(copy, 'routes.txt');
    const bytes = readFileSync(routes);
    bytes[bytes.length - 3] ^= 1;
    writeFileSync(routes, bytes);
    expect(await bundleHash(copy)).not.toBe(h);
  });
});

describe('Backend: notes and exports through the contract', () => {
  let backend: Backend;
  let bundleId: string;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tmp();
    backend = new Backend({ mode: 'browser', dataDir });
    const { jobId } = (await backend.invoke('openDemo', { name: 'l2bridge-node' })) as { jobId: string };
    const job = (await backend.waitForLoad(jobId)) as LoadJob;
    bundleId = job.summary!.id;
  });

  it('saves notes with revisions and refuses a stale one', async () => {
    const n = (await backend.invoke('getNotes', { bundleId })) as Notes;
    expect(n.revision).toBe(0);
    expect(n.bundle.hash).toMatch(/^sha256:/);
    const r = (await backend.invoke('saveNotes', { bundleId, notes: { ...n, title: 'Slow DNS', notes: edit('x').notes }, baseRevision: 0 })) as { revision: number };
    expect(r.revision).toBe(1);
    await expect(backend.invoke('saveNotes', { bundleId, notes: { ...n, title: 'other window' }, baseRevision: 0 })).rejects.toThrow(/stale/);
    await expect(backend.invoke('saveNotes', { bundleId, notes: { ...n, title: 'x'.repeat(301) }, baseRevision: 1 })).rejects.toThrow(/title/);
    expect(((await backend.invoke('getNotes', { bundleId })) as Notes).title).toBe('Slow DNS');
  });

  it('exports a preview, and writes a file only where the save dialog answered', async () => {
    const traces = [{ srcIp: '10.244.32.3', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const }];
    const md = (await backend.invoke('exportReport', { bundleId, format: 'md', traces, redact: false })) as { content: string };
    expect(md.content).toMatch(/^# Slow DNS/);
    const out = path.join(tmp(), 'r.html');
    // Browser mode has no save dialog: nothing is written anywhere.
    await expect(backend.invoke('exportReport', { bundleId, format: 'html', traces, redact: true, outPath: out })).rejects.toThrow(/was not chosen in the save dialog/);
    // The desktop app's dialog answers `out`: that file, and only that one, may be written.
    const desktop = new Backend({ mode: 'electron', dataDir, dialogs: { pickBundle: async () => null, pickSavePath: async () => ({ path: out }) } });
    const id = (await desktop.waitForLoad((await desktop.invoke('openDemo', { name: 'l2bridge-node' })).jobId)).summary!.id;
    expect(await desktop.invoke('pickSavePath', { defaultName: 'r', extension: 'html' })).toEqual({ path: out });
    const html = (await desktop.invoke('exportReport', { bundleId: id, format: 'html', traces, redact: true, outPath: out })) as { content: string; path: string };
    expect(html.path).toBe(out);
    expect(readFileSync(out, 'utf8')).toBe(html.content);
    expect(html.content).not.toContain('10.244.32.3');
    await expect(desktop.invoke('exportReport', { bundleId: id, format: 'md', traces, redact: false, outPath: path.join(dataDir, 'x.html') })).rejects.toThrow(/must end in \.md, the format chosen/);
  });

  it('diffs two bundles as a job', async () => {
    const a = path.join(root, 'assets/demo/l2bridge-node');
    const { jobId } = (await backend.invoke('openDiff', { pathA: a, pathB: a })) as { jobId: string };
    let s;
    for (;;) {
      s = (await backend.invoke('getDiff', { jobId })) as { state: string; result?: { totals: { added: number } } };
      if (s.state !== 'loading') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(s.state).toBe('done');
    expect(s.result!.totals).toEqual({ added: 0, removed: 0, changed: 0 });
  });
});

describe('two processes saving the same notes', () => {
  it('accept each revision once: the other is refused as stale, no update is lost', async () => {
    const dataDir = tmp();
    const hash = 'race-hash-1';
    // Start-up under load varies by seconds: both begin at one moment, when both have said they are
    // ready (a fixed delay waited 8 s on a quiet machine, and could still be too short under load).
    const children: ChildProcess[] = [];
    let ready = 0;
    const racer = (who: string) =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(process.execPath, [path.join(__dirname, 'racer-child.mjs'), dataDir, hash, '60', who], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
        children.push(child);
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          const was = out;
          out += String(d);
          if (!was.includes('ready\n') && out.includes('ready\n') && ++ready === 2) for (const c of children) c.stdin!.end('go\n');
        });
        child.stderr.on('data', (d) => (err += String(d)));
        child.once('exit', (code) => (code === 0 ? resolve(out.split('\n').filter((l) => l && l !== 'ready')) : reject(new Error(`racer ${who} exited ${code}: ${err}`))));
      });
    const [a, b] = await Promise.all([racer('a'), racer('b')]);
    const accepted = [...a, ...b].filter((l) => l !== 'stale').map(Number);
    // Each revision was told to exactly one writer, and the file holds the last of them.
    expect(new Set(accepted).size).toBe(accepted.length);
    const stored = await new NotesStore(dataDir).get({ hash, location: '/bundles/node-a', beside: false });
    expect(stored.revision).toBe(accepted.length);
    expect(Math.max(...accepted)).toBe(stored.revision);
    // Both ran at once: each was told "stale" at least once, or the test proved nothing about a race.
    expect(a.includes('stale') || b.includes('stale')).toBe(true);
    expect(readdirSync(path.join(dataDir, 'notes')).filter((n) => n.endsWith('.lock'))).toEqual([]);
  }, 120_000);

  it('recovers a lock left by a writer that was killed', async () => {
    const dataDir = tmp();
    const store = new NotesStore(dataDir);
    const bundle = { hash: 'stale-lock', location: '/bundles/node-a', beside: false };
    const file = await store.fileFor(bundle);
    mkdirSync(path.dirname(file), { recursive: true });
    // A pid that is not running on this machine.
    writeFileSync(`${file}.lock`, `2147483646\n${os.hostname()}\n`);
    expect((await store.save(bundle, { title: 't', summary: '', notes: [], traces: [] }, 0)).revision).toBe(1);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

