// A view built for a request runs under the analysis budget: one that spends it answers "not
// evaluated: over budget" (kind 'failed') instead of holding the backend — every other request of
// the server or window waits while it runs.
import { ApiError } from '../../contract/index.ts';
import { OverBudgetError, WorkBudget, withBudget } from '../../analysis/budget.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';

export function budgeted<T>(what: string, fn: () => T): T {
  try {
    return withBudget(new WorkBudget(ANALYSIS_BUDGET), fn);
  } catch (e) {
    if (e instanceof OverBudgetError) throw new ApiError(`${what}: not evaluated: ${e.message}`, 'failed');
    throw e;
  }
}
