// One budget for everything a process holds open: every node of a cluster, every window's node, the
// pastes. Each load charges the bytes it reads to its own bundle's budget (read-budget.ts) and to this
// one; the node gives them back when it is closed (releaseNode) or, for a node nobody closes (the CLI,
// a diff, a fleet run), when it is collected. A load that would pass it names the bundle and the file
// and loads the rest, as a bundle over its own budget does.
//
// The bytes read stand for what a node holds: the VFP dump is kept as bytes, the other files as the
// objects parsed from them (smaller than their text). It is an account, not a measure of the heap.
import os from 'node:os';
import { parseByteSize } from './limits.ts';

export const ENV_MAX_MEMORY = 'HNSIGHT_MAX_MEMORY_BYTES';

/** Half the machine's memory (at least 2 GiB, the default budget of one bundle). */
export function defaultMemoryBudget(totalmem = os.totalmem()): number {
  return Math.max(Math.floor(totalmem / 2), 2 * 1024 ** 3);
}

/** HNSIGHT_MAX_MEMORY_BYTES when set (bytes or `6G`), else defaultMemoryBudget(). */
export function memoryBudgetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[ENV_MAX_MEMORY];
  if (raw === undefined || raw === '') return defaultMemoryBudget();
  const n = parseByteSize(raw);
  if (n === undefined) throw new Error(`${ENV_MAX_MEMORY} must be a size in bytes (e.g. 6000000000, 6G or 6GiB), not "${raw.slice(0, 40)}"`);
  return n;
}

export class MemoryBudget {
  private used = 0;

  constructor(readonly total: number) {}

  /** Takes `bytes` when they fit, and says whether they did. */
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

let shared: MemoryBudget | undefined;

/** The process's budget, made on first use from the environment. */
export function processMemory(): MemoryBudget {
  shared ??= new MemoryBudget(memoryBudgetFromEnv());
  return shared;
}

interface Hold {
  bytes: number;
  budget: MemoryBudget;
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
export function holdForNode(node: object, bytes: number, budget: MemoryBudget, cleanup?: () => void): void {
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
