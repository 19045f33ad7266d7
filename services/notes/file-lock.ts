// An exclusive lock across processes: a lock file created with O_EXCL beside the file it guards.
// Two hnsight processes (two `serve`, or the app and a `serve`) saving the same bundle's notes both
// checked the revision and both wrote N+1 (issue #28): the check and the write now happen while
// holding this lock. A lock left by a process that was killed is recovered: its owner (pid, same
// machine) is gone, or it is older than any save takes.
import { promises as fs } from 'node:fs';
import os from 'node:os';

export class LockBusy extends Error {
  override name = 'LockBusy';
}

export interface LockOptions {
  /** Give up after this long (ms): another process holds the lock and is not letting go. */
  waitMs?: number;
  /** A lock older than this is taken for a dead writer's (a save takes well under a second). */
  staleMs?: number;
  alive?: (pid: number) => boolean;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock at `lockFile` was left by a writer that is gone. */
async function isStale(lockFile: string, staleMs: number, alive: (pid: number) => boolean): Promise<boolean> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, mtimeMs] = await Promise.all([fs.readFile(lockFile, 'utf8'), fs.stat(lockFile).then((s) => s.mtimeMs)]);
  } catch {
    return false; // gone already: the next attempt takes it
  }
  if (Date.now() - mtimeMs > staleMs) return true;
  const [pid, host] = text.split('\n');
  const n = Number(pid);
  // Written but not yet filled in (a moment after O_EXCL): young, so not stale.
  if (!Number.isInteger(n) || n <= 0) return false;
  return host === os.hostname() && n !== process.pid && !alive(n);
}

/**
 * Creates the lock with its owner already in it: written to a file of this process's own, then linked
 * to the lock's name, which fails when the lock exists. A writer killed at any moment leaves either
 * no lock or one that names it (an O_EXCL create then a write could leave an empty lock nobody could
 * tell from a young one).
 */
async function acquire(lockFile: string): Promise<boolean> {
  const mine = `${lockFile}.${process.pid}.${Math.random().toString(36).slice(2)}.new`;
  await fs.writeFile(mine, `${process.pid}\n${os.hostname()}\n`, { mode: 0o600 });
  try {
    await fs.link(mine, lockFile);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  } finally {
    await fs.rm(mine, { force: true });
  }
}

/** Runs `fn` holding the lock `lockFile`; throws LockBusy when it cannot be had within `waitMs`. */
export async function withFileLock<T>(lockFile: string, fn: () => Promise<T>, o: LockOptions = {}): Promise<T> {
  const waitMs = o.waitMs ?? 10_000;
  const staleMs = o.staleMs ?? 60_000;
  const alive = o.alive ?? processAlive;
  const deadline = Date.now() + waitMs;
  let delay = 5;
  for (;;) {
    if (await acquire(lockFile)) {
      try {
        return await fn();
      } finally {
        await fs.rm(lockFile, { force: true });
      }
    }
    if (await isStale(lockFile, staleMs, alive)) {
      // Two processes may both find it stale: only one rename wins, so only one removes it.
      const grave = `${lockFile}.${process.pid}.${Date.now()}.stale`;
      if (await fs.rename(lockFile, grave).then(() => true, () => false)) await fs.rm(grave, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new LockBusy(`another hnsight is saving these notes (${lockFile} is held); try again`);
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
}
