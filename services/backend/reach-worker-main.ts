// The reachability matrix of one node, in a worker thread (reach-runner.ts): the node rebuilt from what
// it was read from, then one source at a time against the default destinations, progress after each.
// The cells and the time are bounded: what is not walked is left out and the notes say so.
import { parentPort } from 'node:worker_threads';
import { loadOrigin } from '../bundle/load.ts';
import { reviveVfpIndex } from '../../parsers/vfp/index.ts';
import type { ParsedFile } from '../../parsers/bundle/parse-file.ts';
import { defaultDestinations, defaultSources, reachMatrix, type ReachCell } from '../../analysis/reach/index.ts';
import { reachMatrixView } from '../../analysis/view-models/reach-data.ts';
import type { ReachMessage, ReachRequest } from './reach-runner.ts';

const post = (m: ReachMessage) => parentPort!.postMessage(m);

parentPort!.once('message', async (req: ReachRequest) => {
  try {
    post({ type: 'progress', done: 0, total: 0, what: 'reading the bundle' });
    const reuse = new Map<string, ParsedFile>();
    for (const p of req.reuse) {
      if (p.content.type === 'vfp') p.content.index = reviveVfpIndex(p.content.index, p.content.bytes);
      reuse.set(p.name, p);
    }
    const model = await loadOrigin(req.origin, { reuse, bigFileBytes: Number.POSITIVE_INFINITY });
    const sources = defaultSources(model);
    const dests = defaultDestinations(model);
    const cells: ReachCell[] = [];
    const t0 = performance.now();
    let stopped: string | undefined;
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i];
      const left = req.maxCells - cells.length;
      if (left < dests.length) {
        stopped = `Only the first ${i} of ${sources.length} sources were worked out: the view walks at most ${req.maxCells.toLocaleString('en-US')} cells.`;
        break;
      }
      if (performance.now() - t0 > req.maxMs) {
        stopped = `Only the first ${i} of ${sources.length} sources were worked out: the view stops after ${Math.round(req.maxMs / 1000)} s. \`hnsight reach\` works out every cell.`;
        break;
      }
      post({ type: 'progress', done: i, total: sources.length, what: `from ${s.name ?? s.ip}` });
      cells.push(...reachMatrix(model, dests, { sources: [s], findings: req.findings, maxWalks: left }));
    }
    const notes = [
      'Destinations: every local pod (on the ports its Services target, else a ping), every Service port, one address per remote pod subnet, the node and the outside. Each cell is the walk of one example packet and its reply.',
      ...(stopped ? [stopped] : []),
    ];
    post({ type: 'done', view: reachMatrixView(sources, dests, cells, notes) });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
});
