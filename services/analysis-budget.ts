// The budget of work the services and the CLI give each check and each view they build: the checks'
// step count, and 30 s of this process's clock (the pure layers take the clock from here; they have none).
import { DEFAULT_BUDGET, type BudgetOptions } from '../analysis/checks/index.ts';

export const ANALYSIS_BUDGET: BudgetOptions = { ...DEFAULT_BUDGET, maxMs: 30_000, now: () => performance.now() };
