// The reachability part of Compare (issue #25 point 5), in a worker thread (reach-diffs.ts): both
// bundles loaded, each source of A matched in B (by Kubernetes name where a snapshot has it, else by
// address, each family on its own, as analysis/reach diffReach does), both partitions worked out and overlaid one source at a
// time, with progress after each source and the time bound looked at between sources. The worker then
// stays to walk the example packet of a change on either side (the walks side by side), each walk with
// the findings on its path as the main walk view shows them (the checks of each side's node, run once
// the list is sent, so the first walk rarely waits for them).
import { parentPort } from 'node:worker_threads';
import { diskOrigin } from '../bundle/origin.ts';
import { reviveNode } from './revive-node.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import { diffPartitions, matchSources, reachFrom, sideIn, type ReachChange } from '../../analysis/reach/index.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import { withNames } from '../../analysis/k8s/name-walk.ts';
import { withPathFindings } from '../../analysis/walk/findings-on-path.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { findingViews } from '../../analysis/view-models/findings.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import { changeDestinations } from '../../analysis/view-models/reach-change-destination.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';
import type { ReachDiffIn, ReachDiffOut } from './reach-diff-protocol.ts';

const post = (m: ReachDiffOut) => parentPort!.postMessage(m);
const tick = () => new Promise<void>((r) => setImmediate(r));
let models: { a: NodeModel; b: NodeModel } | undefined;
let stopped = false;
/** Each side's findings, worked out once. */
const findings: Partial<Record<'a' | 'b', FindingView[]>> = {};

function findingsOf(side: 'a' | 'b', model: NodeModel): FindingView[] {
  return (findings[side] ??= findingViews(model, runChecks(model, CHECKS, ANALYSIS_BUDGET)));
}

async function compare(m: Extract<ReachDiffIn, { type: 'start' }>): Promise<void> {
  post({ type: 'progress', done: 0, total: 0, what: 'reading both bundles' });
  // Read as every worker reads its node (revive-node.ts): nothing to reuse, the two bundles are not open.
  const [a, b] = await Promise.all([reviveNode({ origin: diskOrigin(m.pathA) }), reviveNode({ origin: diskOrigin(m.pathB) })]);
  models = { a, b };
  // Each family on its own: a dual-stack pod's IPv6 address is a source too (analysis/reach diff.ts).
  const { pairs, onlyBefore, onlyAfter } = matchSources(a, b);
  // The findings on each class's path are compared too, as `hnsight diff --reach` does: the checks of
  // both bundles run first (a fault that only adds a finding on the path is a change).
  post({ type: 'progress', done: 0, total: pairs.length, what: 'running the checks of both bundles' });
  await tick();
  const fa = findingsOf('a', a);
  await tick();
  const fb = findingsOf('b', b);
  const changed: ReachChange[] = [];
  const t0 = performance.now();
  let compared = 0;
  let cut: string | undefined;
  let budgetHit = false;
  for (const [s, t] of pairs) {
    await tick();
    if (stopped || (compared > 0 && performance.now() - t0 > m.maxMs)) {
      const left = pairs.slice(compared).map(([x]) => x.name ?? x.ip);
      cut = `${stopped ? 'Stopped' : `Stopped after ${Math.round(m.maxMs / 1000)} s`}: ${compared} of ${pairs.length} sources compared; not compared: ${left.slice(0, 8).join(', ')}${left.length > 8 ? ` and ${left.length - 8} more` : ''}. \`hnsight diff A B --reach\` compares every one.`;
      break;
    }
    post({ type: 'progress', done: compared, total: pairs.length, what: `from ${s.name ?? s.ip}` });
    const ra = reachFrom(a, s.ip);
    const rb = reachFrom(b, t.ip);
    budgetHit ||= ra.budget.hit || rb.budget.hit;
    changed.push(...diffPartitions(ra, rb, s, t.ip, { before: sideIn(a, s.ip, fa), after: sideIn(b, t.ip, fb) }));
    compared++;
  }
  const notes = [
    'Each change is a set of packets (addresses, ports, protocol) from one source whose outcome — verdict, deciding rule, reply, rewrites, next hop or the findings on its path — differs between A and B. Sources are matched by Kubernetes name where a snapshot has it, else by address; destinations by address.',
    ...(cut ? [cut] : []),
    ...(budgetHit ? ['Some packet classes were not walked (the budget of walks per source was spent): they show as insufficient information.'] : []),
  ];
  const to = changeDestinations(a, b);
  post({ type: 'done', view: { changed: changed.map((c) => ({ ...c, to: to(c) })), onlyBefore, onlyAfter, compared, sources: pairs.length, notes } });
}

function onMessage(m: ReachDiffIn): void {
  if (m.type === 'start') {
    compare(m).catch((e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
  } else if (m.type === 'stop') {
    stopped = true;
  } else {
    try {
      if (!models) throw new Error('the bundles are still being read');
      const model = models[m.side];
      const walk = withNames(model, walkFlow(model, m.flow, { explain: true, reply: true }));
      post({ type: 'walked', id: m.id, result: withPathFindings(model, walk, findingsOf(m.side, model)) });
    } catch (e) {
      post({ type: 'walked', id: m.id, error: e instanceof Error ? e.message : String(e) });
    }
  }
}

parentPort!.on('message', onMessage);
