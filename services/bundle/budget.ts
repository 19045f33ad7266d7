// A budget of bytes a process may hold at once: one class, two instances — memory (everything open:
// every node of a cluster, every window's node, the pastes; memory-budget.ts) and disk (the temporary
// files big zip entries are inflated to; disk-budget.ts). Each is an account, not a measure: loads
// take what they will hold before they read it and give it back when the node is closed.
import { parseByteSize } from './limits.ts';

export class Budget {
  #used = 0;

  constructor(readonly total: number) {}

  /** Takes `bytes` when they fit, and says whether they did. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.total) return false;
    this.#used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }

  get held(): number {
    return this.#used;
  }
}

/**
 * A budget's total from the environment variable `name` (bytes, or a size such as `6G`, `6GiB`), else
 * `fallback()`; a value that is not a size is refused with a message showing `example`.
 */
export function budgetFromEnv(name: string, fallback: () => number, example: string, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback();
  const n = parseByteSize(raw);
  if (n === undefined) throw new Error(`${name} must be a size in bytes (e.g. ${example}), not "${raw.slice(0, 40)}"`);
  return n;
}
