// What hnsight may write to the temp folder at once: the big zip entries it inflated to temporary files
// (temp-files.ts). HNSIGHT_MAX_DISK_BYTES sets it; by default half the free space of the temp folder
// when first used, at least 1 GiB.
import { statfsSync } from 'node:fs';
import os from 'node:os';
import { parseByteSize } from './limits.ts';

export const ENV_MAX_DISK = 'HNSIGHT_MAX_DISK_BYTES';

export function defaultDiskBudget(dir = os.tmpdir()): number {
  try {
    const s = statfsSync(dir);
    return Math.max(Math.floor((s.bavail * s.bsize) / 2), 1024 ** 3);
  } catch {
    return 1024 ** 3;
  }
}

export function diskBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[ENV_MAX_DISK];
  if (raw === undefined || raw === '') return defaultDiskBudget();
  const n = parseByteSize(raw);
  if (n === undefined) throw new Error(`${ENV_MAX_DISK} must be a size in bytes (e.g. 8000000000, 8G or 8GiB), not "${raw.slice(0, 40)}"`);
  return n;
}

export class DiskBudget {
  private used = 0;
  constructor(readonly total: number) {}
  take(bytes: number): boolean {
    if (this.used + bytes > this.total) return false;
    this.used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
  get held(): number {
    return this.used;
  }
}

let shared: DiskBudget | undefined;

export function processDisk(): DiskBudget {
  shared ??= new DiskBudget(diskBudgetFromEnv());
  return shared;
}
