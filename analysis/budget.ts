// A budget of work for one check (or one view), so a hostile bundle gets "not evaluated: over
// budget" instead of a hang: steps the code counts in its loops over bundle objects, and, when the
// caller passes a clock, a time limit read at those counts. Pure: no timer, no global clock — the
// services pass `performance.now`; tests pass a fake clock or none.
//
// The budget of the code running now is held here while it runs (`withBudget`), so the loops that
// count (`spend`) need no budget argument threaded through every signature. Checks run synchronously,
// one at a time, so one slot suffices; it is restored on the way out.

export interface BudgetOptions {
  /** Most steps the code may count (one per object or combination it looks at). */
  maxSteps: number;
  /** Most milliseconds it may run, read from `now` at its counted steps. */
  maxMs?: number;
  now?: () => number;
}

/** Generous: the largest measured node (~1M VFP rules, 4,000 load balancers) counts a few million. */
export const DEFAULT_BUDGET: BudgetOptions = { maxSteps: 200_000_000 };

/** How often (in counted steps) the clock is read. */
const CLOCK_EVERY = 4096;

/** 30000 → "30", 100 → "0.1". */
export function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

export class OverBudgetError extends Error {
  override name = 'OverBudgetError';
  constructor(
    readonly over: 'steps' | 'time',
    readonly limit: number,
  ) {
    super(over === 'steps' ? `over budget: more than ${limit} steps of work` : `over budget: more than ${seconds(limit)} s of work`);
  }
}

export class WorkBudget {
  private steps = 0;
  private nextClock = CLOCK_EVERY;
  private readonly started: number | undefined;

  constructor(private readonly opts: BudgetOptions = DEFAULT_BUDGET) {
    this.started = opts.now && opts.maxMs !== undefined ? opts.now() : undefined;
  }

  /** Counts `n` steps; OverBudgetError once the steps or the time are spent. */
  spend(n = 1): void {
    this.steps += n;
    if (this.steps > this.opts.maxSteps) throw new OverBudgetError('steps', this.opts.maxSteps);
    if (this.started !== undefined && this.steps >= this.nextClock) {
      this.nextClock = this.steps + CLOCK_EVERY;
      this.checkTime();
    }
  }

  /** OverBudgetError when the time is spent. */
  checkTime(): void {
    if (this.started === undefined) return;
    if (this.opts.now!() - this.started > this.opts.maxMs!) throw new OverBudgetError('time', this.opts.maxMs!);
  }

  get spent(): number {
    return this.steps;
  }
}

let current: WorkBudget | undefined;

/** Counts `n` steps of the code running now against its budget (nothing outside `withBudget`). */
export function spend(n = 1): void {
  current?.spend(n);
}

/** Runs `fn` with `budget` as the one `spend` counts against. */
export function withBudget<T>(budget: WorkBudget, fn: () => T): T {
  const prev = current;
  current = budget;
  try {
    return fn();
  } finally {
    current = prev;
  }
}
