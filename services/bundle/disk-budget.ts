// What hnsight may write to the temp folder at once: the big zip entries it inflated to temporary files
// (temp-files.ts). HNSIGHT_MAX_DISK_BYTES sets it; by default half the free space of the temp folder
// when first used, at least 1 GiB. The account itself is budget.ts's, like the memory budget's.
import { statfsSync } from 'node:fs';
import os from 'node:os';
import { Budget, budgetFromEnv } from './budget.ts';

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
  return budgetFromEnv(ENV_MAX_DISK, () => defaultDiskBudget(), '8000000000, 8G or 8GiB', env);
}

let shared: Budget | undefined;

/** The process's disk budget, made on first use from the environment. */
export function processDisk(): Budget {
  shared ??= new Budget(diskBudgetFromEnv());
  return shared;
}
