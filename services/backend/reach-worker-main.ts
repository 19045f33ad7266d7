// The reachability matrix of one node, in a worker thread (reach-runner.ts): the node rebuilt from what
// it was read from, then one source at a time against the default destinations, progress after each
// slice of them.
// The cells and the time are bounded: what is not walked is left out and the notes say so.
import { parentPort } from 'node:worker_threads';
import { loadOrigin } from '../bundle/load.ts';
import { reviveVfpIndex } from '../../parsers/vfp/index.ts';
import type { ParsedFile } from '../../parsers/bundle/parse-file.ts';
import { defaultDestinations, defaultSources, reachMatrix, type ReachCell } from '../../analysis/reach/index.ts';
import { reachMatrixView } from '../../analysis/view-models/reach-data.ts';
import type { ReachMessage, ReachRequest } from './reach-runner.ts';

const post = (m: ReachMessage) => parentPort!.postMessage(m);
/** Destinations walked between two looks at the bounds (about a second on a big node). */
const SLICE = 32;

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
    const total = sources.length * dests.length;
    let stopped: string | undefined;
    // One source against a slice of the destinations at a time: a node with many Services spends tens
    // of seconds on one source, and the time and cell bounds are checked between slices.
    outer: for (let i = 0; i < sources.length; i++) {
      const s = sources[i];
      for (let j = 0; j < dests.length; j += SLICE) {
        // The first slice is always walked; a slice cut short by the cell bound is the last.
        const done = i * dests.length + j;
        const over = cells.length >= req.maxCells ? `at most ${req.maxCells.toLocaleString('en-US')} cells` : done > 0 && performance.now() - t0 > req.maxMs ? `${Math.round(req.maxMs / 1000)} s of walks` : undefined;
        if (over) {
          stopped = `Worked out ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} cells (the first ${i} sources whole): the view stops after ${over}. Cells not worked out are blank; \`hnsight reach\` works out every one.`;
          break outer;
        }
        post({ type: 'progress', done, total, what: `from ${s.name ?? s.ip}` });
        cells.push(...reachMatrix(model, dests.slice(j, j + Math.min(SLICE, req.maxCells - cells.length)), { sources: [s], findings: req.findings }));
      }
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
