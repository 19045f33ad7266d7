// The Services table of one node, worked out in a worker thread so the backend keeps answering (search,
// walks, the inspector) meanwhile: on a node with 2,000 Services it takes many seconds, and on the
// backend's one event loop it held every other request that long. The node is rebuilt here as every
// worker rebuilds it (revive-node.ts). One request, one answer; the worker then ends.
import { parentPort } from 'node:worker_threads';
import { reviveNode } from './revive-node.ts';
import { servicesTable } from '../../analysis/view-models/services-table.ts';
import { OverBudgetError, WorkBudget, withBudget } from '../../analysis/budget.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';
import type { ServicesMessage, ServicesRequest } from './services-protocol.ts';
import { plural } from '../../parsers/text/quantities.ts';

const post = (m: ServicesMessage) => parentPort!.postMessage(m);

async function answer(req: ServicesRequest): Promise<void> {
  try {
    post({ type: 'progress', done: 0, total: 2, what: 'reading the bundle' });
    const model = await reviveNode(req);
    const n = model.k8s?.services.length ?? 0;
    post({ type: 'progress', done: 1, total: 2, what: `holding ${n === 1 ? 'the Service' : `the ${plural(n, 'Service')}`} of the kubectl snapshot against the load balancers and VFP rules` });
    // The rebuild is not the table's work: the budget starts now, as it did on the backend's thread.
    const view = withBudget(new WorkBudget(ANALYSIS_BUDGET), () => servicesTable(model));
    post({ type: 'done', view });
  } catch (e) {
    const over = e instanceof OverBudgetError;
    post({ type: 'error', message: `${over ? 'the Services table: not evaluated: ' : ''}${e instanceof Error ? e.message : String(e)}`, overBudget: over });
  }
}

// Every failure is answered inside answer(): the handler only starts it.
parentPort!.once('message', (req: ServicesRequest) => void answer(req));
