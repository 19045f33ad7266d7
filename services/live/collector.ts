// Runs the CollectLogs commands over a RemoteShell and writes a bundle folder that `inspect` and the app
// open like any other. Each file is written when its command finishes; what a failed or cancelled command
// printed is kept. `hnsight-collect.json` (the manifest) says, per file, whether it is complete, partial,
// failed or missing, and why; it never contains credentials.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { COLLECT_COMMANDS, scriptFor, type CollectCommand } from './collect-commands.ts';
import { RemoteError, type RemoteShell } from './remote-shell.ts';
import { concat } from './crypto.ts';
import { readFrames } from './file-frames.ts';

export const MANIFEST_FILE = 'hnsight-collect.json';

export type CommandStatus = 'ok' | 'partial' | 'failed' | 'cancelled' | 'skipped';

export interface CommandRecord {
  id: string; file: string; title: string; status: CommandStatus; exitCode: number | null;
  bytes: number; durationMs: number; error?: string; stderr?: string;
  /** A multi-file command: the files it wrote under `file` (a folder), with their sizes. */
  files?: { name: string; bytes: number }[];
}

export interface CollectManifest {
  tool: 'hnsight'; version: 1; transport: RemoteShell['transport']; target: string;
  startedAt: string; finishedAt: string;
  /** 'complete': every command ok; 'partial': some failed or were cancelled; 'failed': nothing useful collected. */
  status: 'complete' | 'partial' | 'failed' | 'cancelled';
  error?: string;
  commands: CommandRecord[];
}

export type CollectEvent =
  | { type: 'connecting'; target: string }
  | { type: 'connected'; target: string; notices?: string[] }
  | { type: 'command-start'; id: string; file: string; title: string; index: number; total: number }
  | { type: 'command-output'; id: string; bytes: number }
  | { type: 'command-end'; record: CommandRecord; index: number; total: number }
  | { type: 'done'; manifest: CollectManifest; outDir: string };

export interface CollectOptions {
  outDir: string;
  signal?: AbortSignal;
  onEvent?: (e: CollectEvent) => void;
  commands?: CollectCommand[];
  /** Scale every command's timeout (tests). */
  timeoutMs?: number;
}

const MAX_STDERR = 4000;

/** Refuses a folder that already holds files: collection never overwrites evidence. */
export async function prepareOutDir(outDir: string): Promise<void> {
  try {
    const entries = await fs.readdir(outDir);
    if (entries.length) throw new RemoteError('refused', `${outDir} is not empty; choose a new folder for the collected bundle`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await fs.mkdir(outDir, { recursive: true });
  }
}

/**
 * A multi-file command's frames written under `<outDir>/<dir>/`, each by its own name; the record gets
 * the files and their total size. Returns what was lost, in words, or null.
 */
async function writeFrames(outDir: string, dir: string, stdout: Uint8Array, rec: CommandRecord): Promise<string | null> {
  const f = readFrames(stdout);
  rec.files = [];
  for (const file of f.files) {
    if (!file.bytes.length) continue;
    await fs.mkdir(path.dirname(path.join(outDir, dir, file.name)), { recursive: true });
    await writeFileAtomic(path.join(outDir, dir, file.name), file.bytes);
    rec.files.push({ name: file.name, bytes: file.bytes.length });
  }
  rec.bytes = rec.files.reduce((n, x) => n + x.bytes, 0);
  const lost = [...(f.cut ? [`${f.cut} was cut off and not written`] : []), ...f.refused.map((n) => `refused the file name ${JSON.stringify(n)}`)];
  return lost.length ? lost.join('; ') : null;
}

export async function collectBundle(shell: RemoteShell, o: CollectOptions): Promise<CollectManifest> {
  const commands = o.commands ?? COLLECT_COMMANDS;
  const emit = (e: CollectEvent) => { try { o.onEvent?.(e); } catch { /* a listener's failure is not the collection's */ } };
  await prepareOutDir(o.outDir);
  const manifest: CollectManifest = {
    tool: 'hnsight', version: 1, transport: shell.transport, target: shell.target,
    startedAt: new Date().toISOString(), finishedAt: '', status: 'complete', commands: [],
  };
  const writeManifest = async () => { manifest.finishedAt = new Date().toISOString(); await writeFileAtomic(path.join(o.outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n'); };
  try {
    emit({ type: 'connecting', target: shell.target });
    try {
      await shell.open(o.signal);
    } catch (e) {
      const err = e instanceof RemoteError ? e : new RemoteError('connection', (e as Error).message);
      manifest.status = err.kind === 'cancelled' ? 'cancelled' : 'failed';
      manifest.error = err.message;
      for (const c of commands) manifest.commands.push({ id: c.id, file: c.file, title: c.title, status: 'skipped', exitCode: null, bytes: 0, durationMs: 0, error: 'not run: ' + err.message });
      await writeManifest();
      emit({ type: 'done', manifest, outDir: o.outDir });
      return manifest;
    }
    emit({ type: 'connected', target: shell.target, ...(shell.notices?.length ? { notices: [...shell.notices] } : {}) });
    let fatal: RemoteError | null = null;
    for (const [index, c] of commands.entries()) {
      const base = { id: c.id, file: c.file, title: c.title };
      if (fatal) {
        manifest.commands.push({ ...base, status: fatal.kind === 'cancelled' ? 'cancelled' : 'skipped', exitCode: null, bytes: 0, durationMs: 0, error: 'not run: ' + fatal.message });
        continue;
      }
      emit({ type: 'command-start', ...base, index, total: commands.length });
      const started = Date.now();
      const chunks: Uint8Array[] = [];
      let got = 0;
      let rec: CommandRecord;
      try {
        const r = await shell.run(scriptFor(c), {
          signal: o.signal, timeoutMs: o.timeoutMs ?? c.timeoutMs,
          onStdout: (b) => { chunks.push(b); got += b.length; emit({ type: 'command-output', id: c.id, bytes: got }); },
        });
        const stdout = r.stdout.length >= got ? r.stdout : concat(...chunks);
        const stderr = r.stderr.trim();
        const status: CommandStatus = r.exitCode === 0 ? (stderr && stdout.length === 0 ? 'failed' : 'ok') : stdout.length ? 'partial' : 'failed';
        rec = { ...base, status, exitCode: r.exitCode, bytes: stdout.length, durationMs: Date.now() - started };
        if (stderr) rec.stderr = stderr.slice(0, MAX_STDERR);
        if (status !== 'ok') rec.error = r.exitCode !== 0 ? `exit code ${r.exitCode}` : 'no output, errors on stderr';
        if (c.multi) {
          const cut = await writeFrames(o.outDir, c.file, stdout, rec);
          if (cut) rec.error = rec.error ? `${rec.error}; ${cut}` : cut;
        } else if (stdout.length) await writeFileAtomic(path.join(o.outDir, c.file), stdout);
      } catch (e) {
        const err = e instanceof RemoteError ? e : new RemoteError('protocol', (e as Error).message);
        const partial = concat(...chunks);
        rec = { ...base, status: err.kind === 'cancelled' ? 'cancelled' : partial.length ? 'partial' : 'failed', exitCode: null, bytes: partial.length, durationMs: Date.now() - started, error: err.message };
        if (c.multi) await writeFrames(o.outDir, c.file, partial, rec);
        else if (partial.length) await writeFileAtomic(path.join(o.outDir, c.file), partial);
        // Cancellation, bad credentials and a lost node stop the run; a per-command timeout or fault does not.
        if (err.kind === 'cancelled' || err.kind === 'auth' || err.kind === 'connection' || err.kind === 'refused' || err.kind === 'tls') fatal = err;
      }
      manifest.commands.push(rec);
      emit({ type: 'command-end', record: rec, index, total: commands.length });
    }
    const ok = manifest.commands.filter((r) => r.status === 'ok').length;
    if (fatal?.kind === 'cancelled') manifest.status = 'cancelled';
    else if (ok === commands.length) manifest.status = 'complete';
    else if (manifest.commands.some((r) => r.bytes > 0)) manifest.status = 'partial';
    else manifest.status = 'failed';
    if (fatal) manifest.error = fatal.message;
    await writeManifest();
    emit({ type: 'done', manifest, outDir: o.outDir });
    return manifest;
  } finally {
    await shell.close();
  }
}
