// The reachability matrix of one node, in a worker thread (reach-runner.ts): the node rebuilt from what
// it was read from, then one source at a time against the default destinations, progress after each
// slice of them.
// The cells and the time are bounded: what is not walked is left out and the notes say so.
import { parentPort } from 'node:worker_threads';
import { loadOrigin } from '../bundle/load.ts';
import { reviveVfpContent } from '../bundle/file-bytes.ts';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import { defaultDestinations, defaultSources, reachMatrix, type ReachCell } from '../../analysis/reach/index.ts';
import { reachEnds, reachMatrixView } from '../../analysis/view-models/reach-data.ts';
import type { ReachMessage, ReachRequest } from './reach-runner.ts';

const post = (m: ReachMessage) => parentPort!.postMessage(m);
/** Destinations walked between two looks at the bounds (about a second on a big node). */
const SLICE = 32;

async function answer(req: ReachRequest): Promise<void> {
  try {
    post({ type: 'progress', done: 0, total: 0, what: 'reading the bundle' });
    const reuse = new Map<string, ParsedFile>();
    for (const p of req.reuse) {
      if (p.content.type === 'vfp') reviveVfpContent(p.content);
      reuse.set(p.name, p);
    }
    const model = await loadOrigin(req.origin, { reuse, bigFileBytes: Number.POSITIVE_INFINITY });
    const sources = defaultSources(model);
    const dests = defaultDestinations(model);
    const cells: ReachCell[] = [];
    const t0 = performance.now();
    const total = sources.length * dests.length;
    let stopped: string | undefined;
    // The work in slices: one source against up to SLICE destinations, the time and cell bounds looked
    // at between slices (one source of a node with many Services takes tens of seconds). Every source
    // against the pods, remote pod subnets, the node and the outside first, the Services (a walk per
    // backend each) after: a view cut short by its bounds still shows every row.
    const { destinations: ends } = reachEnds(sources, dests);
    const cheap = dests.filter((_, k) => ends[k].kind !== 'service');
    const services = dests.filter((_, k) => ends[k].kind === 'service');
    let done = 0;
    outer: for (const part of [cheap, services])
      for (let i = 0; i < sources.length; i++)
        for (let j = 0; j < part.length; ) {
          // The first slice is always walked; near the cell bound a slice is cut to what is left of it.
          const over = cells.length >= req.maxCells ? `at most ${req.maxCells.toLocaleString('en-US')} cells` : done > 0 && performance.now() - t0 > req.maxMs ? `${Math.round(req.maxMs / 1000)} s of walks` : undefined;
          if (over) {
            stopped = `Worked out ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} cells${part === services ? ' (every source to the pods, remote pod subnets, the node and the outside; to the Services, not all)' : ''}: the view stops after ${over}. Blank cells were not worked out; \`hnsight reach\` works out every one.`;
            break outer;
          }
          post({ type: 'progress', done, total, what: `from ${sources[i].name ?? sources[i].ip}` });
          const slice = part.slice(j, j + Math.min(SLICE, req.maxCells - cells.length));
          cells.push(...reachMatrix(model, slice, { sources: [sources[i]], findings: req.findings }));
          done += slice.length;
          j += slice.length;
        }
    const notes = [
      'Destinations: every local pod (on the ports its Services target, else a ping), every Service port, one address per remote pod subnet, the node and the outside. Each cell is the walk of one example packet and its reply.',
      ...(stopped ? [stopped] : []),
    ];
    post({ type: 'done', view: reachMatrixView(sources, dests, cells, notes) });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}

// Every failure is answered inside answer(): the handler only starts it.
parentPort!.once('message', (req: ReachRequest) => void answer(req));
