// The findings of one node, computed in a worker thread so the backend keeps answering (search, walks,
// the inspector) while the checks run. The node is rebuilt here as every worker rebuilds it
// (revive-node.ts: the small files' records unpacked as the load packed them, the VFP dumps taken as
// the load parsed them; findings-runner.ts says why the node itself is not sent). Progress goes back
// after every check.
import { parentPort } from 'node:worker_threads';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';
import { findingViews } from '../../analysis/view-models/findings.ts';
import { reviveNode } from './revive-node.ts';
import type { FindingsRequest, FindingsMessage } from './findings-runner.ts';

const post = (m: FindingsMessage) => parentPort!.postMessage(m);

async function answer(req: FindingsRequest): Promise<void> {
  try {
    const t0 = performance.now();
    post({ type: 'progress', done: 0, total: 0, what: 'reading the bundle' });
    const model = await reviveNode(req);
    const rebuildMs = performance.now() - t0;
    const findings = runChecks(model, CHECKS, ANALYSIS_BUDGET, { onProgress: (p) => post({ type: 'progress', done: p.done, total: p.total, what: p.check }) });
    post({ type: 'done', findings: findingViews(model, findings), rebuildMs, checksMs: performance.now() - t0 - rebuildMs });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}

// Every failure is answered inside answer(): the handler only starts it.
parentPort!.once('message', (req: FindingsRequest) => void answer(req));
