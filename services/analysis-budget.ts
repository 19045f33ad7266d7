// The budget of work the services and the CLI give each check and each view they build: the checks'
// step count, and 30 s of this process's clock (the pure layers take the clock from here; they have none).
// HNSIGHT_ANALYSIS_SECONDS raises or lowers the clock's share for a slow or busy machine (the end-to-end
// tests give their servers more: a comparison of two nodes that stops at its bound lists fewer sources,
// which on a loaded test machine made assertions about every source fail).
import { DEFAULT_BUDGET, type BudgetOptions } from '../analysis/checks/index.ts';

/** The clock's share in ms: HNSIGHT_ANALYSIS_SECONDS when it is a positive number (at most a day), else 30 s. */
export function analysisMs(env: Record<string, string | undefined> = process.env): number {
  const s = Number(env.HNSIGHT_ANALYSIS_SECONDS);
  return Number.isFinite(s) && s > 0 && s <= 86_400 ? Math.round(s * 1000) : 30_000;
}

export const ANALYSIS_BUDGET: BudgetOptions = { ...DEFAULT_BUDGET, maxMs: analysisMs(), now: () => performance.now() };
