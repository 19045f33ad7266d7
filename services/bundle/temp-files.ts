// Temporary files a big zip entry is inflated to, so it is read like a folder's file (a VFP dump's bytes
// on demand) instead of being held in memory. Each lives in a private folder under the OS temp dir
// (mode 0700, the file 0600), is counted against the disk budget (disk-budget.ts) while it exists, and
// is removed when the node that reads it is closed or collected, and at the latest when the process
// (or the worker thread) exits. A process killed outright leaves its `hnsight-*` folder behind.
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processDisk } from './disk-budget.ts';
import type { Budget } from './budget.ts';
import { OverBudget } from './limits.ts';

let dir: string | undefined;
const live = new Map<string, { bytes: number; budget: Budget }>();

let listening = false;

function tempDir(): string {
  if (!dir) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-'));
    if (!listening) process.once('exit', removeAll);
    listening = true;
  }
  return dir;
}

/** Removes every temporary file still there, and their folder (at exit). */
export function removeAll(): void {
  for (const p of [...live.keys()]) removeTemp(p);
  if (dir) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Nothing more to do at exit.
    }
    dir = undefined;
  }
}

export interface TempFile {
  path: string;
  bytes: number;
}

/**
 * A new temporary file for `bytes` bytes of `name`, filled by `fill(fd)` (which returns the bytes
 * written); OverBudget ('disk') when the disk budget has no room, and nothing is left behind when
 * filling fails.
 */
export async function writeTemp(name: string, bytes: number, fill: (fd: number) => Promise<number>, budget: Budget = processDisk()): Promise<TempFile> {
  if (!budget.take(bytes)) throw new OverBudget(name, bytes, budget.total, 'disk', budget.held);
  let p: string | undefined;
  let fd: number | undefined;
  try {
    p = path.join(tempDir(), `${live.size}-${Date.now().toString(36)}-${path.basename(name).replace(/[^\w.-]/g, '_').slice(0, 60)}`);
    fd = openSync(p, 'wx', 0o600);
    live.set(p, { bytes, budget });
    const written = await fill(fd);
    return { path: p, bytes: written };
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    if (p && live.has(p)) removeTemp(p);
    else budget.give(bytes);
    throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes a temporary file and gives its bytes back to the disk budget (once, however often called). */
export function removeTemp(p: string): void {
  const t = live.get(p);
  if (!t) return;
  live.delete(p);
  t.budget.give(t.bytes);
  try {
    rmSync(p, { force: true });
    // The last one gone: its folder too (a thread that ends without an exit event leaves nothing).
    if (live.size === 0 && dir) {
      rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    }
  } catch {
    // Already gone.
  }
}

/** The temporary files that exist now (for tests and diagnostics). */
export function liveTemps(): string[] {
  return [...live.keys()];
}
