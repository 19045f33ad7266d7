// One budget for everything a process holds open: every node of a cluster, every window's node, the
// pastes. Each load charges the bytes it reads to its own bundle's budget (read-budget.ts) and to this
// one; the node gives them back when it is closed (releaseNode) or, for a node nobody closes (the CLI,
// a diff, a fleet run), when it is collected. A load that would pass it names the bundle and the file
// and loads the rest, as a bundle over its own budget does.
//
// The bytes read stand for what a node holds: the VFP dump is kept as bytes, the other files as the
// objects parsed from them (smaller than their text). It is an account, not a measure of the heap.
import os from 'node:os';
import { Budget, budgetFromEnv } from './budget.ts';

export const ENV_MAX_MEMORY = 'HNSIGHT_MAX_MEMORY_BYTES';

/** Half the machine's memory (at least 2 GiB, the default budget of one bundle). */
export function defaultMemoryBudget(totalmem = os.totalmem()): number {
  return Math.max(Math.floor(totalmem / 2), 2 * 1024 ** 3);
}

/** HNSIGHT_MAX_MEMORY_BYTES when set (bytes or `6G`), else defaultMemoryBudget(). */
export function memoryBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return budgetFromEnv(ENV_MAX_MEMORY, () => defaultMemoryBudget(), '6000000000, 6G or 6GiB', env);
}

let shared: Budget | undefined;

/** The process's memory budget (budget.ts), made on first use from the environment. */
export function processMemory(): Budget {
  shared ??= new Budget(memoryBudgetFromEnv());
  return shared;
}

interface Hold {
  bytes: number;
  budget: Budget;
  released: boolean;
  /** What else the node holds until it is closed: the temporary files its VFP dumps are read from. */
  cleanup?: () => void;
}

function release(h: Hold): void {
  if (h.released) return;
  h.released = true;
  h.budget.give(h.bytes);
  try {
    h.cleanup?.();
  } catch {
    // A temporary file already gone.
  }
}

/** What each node open now holds of a budget. */
const holds = new WeakMap<object, Hold>();
const collected = new FinalizationRegistry<Hold>(release);

/**
 * The node now holds `bytes` of `budget` (charged by its load): given back by releaseNode or when it is
 * collected, when `cleanup` runs too.
 */
export function holdForNode(node: object, bytes: number, budget: Budget, cleanup?: () => void): void {
  const h: Hold = { bytes, budget, released: false, cleanup };
  holds.set(node, h);
  collected.register(node, h);
}

/** The node was closed: what its load charged is given back at once (once, however often called). */
export function releaseNode(node: object): void {
  const h = holds.get(node);
  if (h) release(h);
}

/** The bytes the node holds of its budget (0 once released). */
export function heldByNode(node: object): number {
  const h = holds.get(node);
  return h && !h.released ? h.bytes : 0;
}
