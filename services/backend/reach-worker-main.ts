// The reachability matrix of one node, in a worker thread that lives while there is work for it
// (reach-session.ts lets it go once idle, and starts another with the cells done when more are asked): the node rebuilt as every worker rebuilds it (revive-node.ts), its sources and destinations sent
// at once (the view shows its rows before any walk), then the cells in slices, each slice sent as soon
// as it is walked so the view fills progressively. A first pass works out what fits in its bounds;
// later the user asks for more cells (a row, a group) and those go first. Between slices the worker
// lets messages in (a request, a stop), and looks at the bounds of the batch it is working on.
import { parentPort } from 'node:worker_threads';
import { reviveNode } from './revive-node.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import { reachMatrix, type Endpoint, type Source } from '../../analysis/reach/index.ts';
import { familyOf } from '../../analysis/walk/ip.ts';
import { cellView, destinationIndex } from '../../analysis/view-models/reach-data.ts';
import { reachEndsOf } from './reach-ends.ts';
import { heapTrim } from './heap-trim.ts';
import { firstPass, type Batch, type ReachIn, type ReachOut } from './reach-protocol.ts';

const post = (m: ReachOut) => parentPort!.postMessage(m);
/** Destinations walked between two looks at the bounds and the messages (about a second on a big node). */
const SLICE = 32;

let model: NodeModel | undefined;
let sources: Source[] = [];
let dests: Endpoint[] = [];
let bounds = { maxCells: 0, maxMs: 0 };
let gotFindings: (f: FindingView[]) => void = () => undefined;
const findings = new Promise<FindingView[]>((r) => (gotFindings = r));
/** Cells worked out (or not walkable: a source to its own address), by s × destinations + d. */
const done = new Set<number>();
const queue: Batch[] = [];
let pumping = false;
/** Garbage collected between slices before it piles up (heap-trim.ts: the server's peak). */
const trim = heapTrim();

const fmt = (n: number) => n.toLocaleString('en-US');
const tick = () => new Promise<void>((r) => setImmediate(r));

/** The pairs of a batch not worked out yet, as slices of one source against up to SLICE destinations. */
function slices(pairs: { s: number; d: number[] }[]): { s: number; d: number[] }[] {
  const out: { s: number; d: number[] }[] = [];
  for (const p of pairs) {
    // A source is not walked to its own address, nor to an address of the other family (a packet keeps
    // its family): such a pair is no cell to work out.
    const left = p.d.filter((d) => !done.has(p.s * dests.length + d) && sources[p.s].ip !== dests[d].ip && familyOf(sources[p.s].ip) === familyOf(dests[d].ip));
    for (let i = 0; i < left.length; i += SLICE) out.push({ s: p.s, d: left.slice(i, i + SLICE) });
  }
  return out;
}

function finish(b: Batch, over?: string): void {
  const left = b.total - b.walked;
  const note = over === 'stopped' && left > 0 ? `Stopped: worked out ${fmt(b.walked)} of the ${fmt(b.total)} cells ${b.kind === 'first' ? 'of the first pass' : 'asked for'}. Blank cells are not worked out: Enter (or a click) on one, or on a group, works it out.` : over && left > 0 ? (b.kind === 'first' ? `Worked out ${fmt(b.walked)} of ${fmt(b.total)} cells: the first pass stops after ${over}. Blank cells are not worked out yet: Enter (or a click) on one, or on a group, works it out; \`hnsight reach\` works out every one.` : `Worked out ${fmt(b.walked)} of the ${fmt(b.total)} cells asked for: a request stops after ${over}. Ask again for the rest.`) : undefined;
  post({ type: 'batch-done', kind: b.kind, ...(note ? { note } : {}) });
}

async function pump(): Promise<void> {
  if (pumping || !model) return;
  pumping = true;
  const f = await findings;
  try {
    while (queue.length) {
      const b = queue[0];
      if (b.at >= b.slices.length) {
        queue.shift();
        finish(b);
        continue;
      }
      // The first slice of a batch is always walked; then its bounds.
      const over = b.walked >= bounds.maxCells ? `at most ${fmt(bounds.maxCells)} cells` : b.walked > 0 && b.spentMs > bounds.maxMs ? `${Math.round(bounds.maxMs / 1000)} s of walks` : undefined;
      if (over) {
        queue.shift();
        finish(b, over);
        continue;
      }
      // Near the cell bound a slice is cut to what is left of it.
      const whole = b.slices[b.at++];
      const sl = { s: whole.s, d: whole.d.slice(0, Math.max(1, bounds.maxCells - b.walked)) };
      const src = sources[sl.s];
      post({ type: 'progress', done: b.walked, total: b.total, what: `from ${src.name ?? src.ip}` });
      const t0 = performance.now();
      const todo = sl.d.filter((d) => !done.has(sl.s * dests.length + d));
      const cells = reachMatrix(model, todo.map((d) => dests[d]), { sources: [src], findings: f });
      b.spentMs += performance.now() - t0;
      b.walked += sl.d.length;
      for (const d of todo) done.add(sl.s * dests.length + d);
      const index = destinationIndex(dests);
      post({ type: 'cells', cells: cells.flatMap((c) => (index(c) === undefined ? [] : [cellView(c, sl.s, index(c)!)])) });
      trim.maybe();
      // Messages (a request that goes first, a stop) are taken between slices.
      await tick();
    }
  } finally {
    pumping = false;
  }
  // HNSIGHT_HEAP_TRIM_LOG=1: what the collections cost (test/bench/server-memory.ts prints it).
  if (process.env.HNSIGHT_HEAP_TRIM_LOG === '1') process.stderr.write(`reachability worker: ${trim.runs} collections between slices, ${Math.round(trim.ms)} ms\n`);
  post({ type: 'idle' });
}

async function start(m: Extract<ReachIn, { type: 'start' }>): Promise<void> {
  post({ type: 'progress', done: 0, total: 0, what: 'reading the bundle' });
  bounds = { maxCells: m.maxCells, maxMs: m.maxMs };
  const node = await reviveNode(m);
  // The same function the session ran on the server's node (reach-ends.ts): the same rows and columns.
  const r = reachEndsOf(node);
  sources = r.sources;
  dests = r.destinations;
  const ends = r.ends;
  model = node;
  if (m.resume) {
    // The session has the ends and the cells: only what is asked from now on is walked.
    for (const c of m.resume.done) done.add(c);
    return;
  }
  post({ type: 'ends', sources: ends.sources, destinations: ends.destinations });
  const pairs = firstPass(ends.sources.length, ends.destinations.map((d) => d.kind));
  queue.push(newBatch('first', pairs));
  void pump();
}

function newBatch(kind: Batch['kind'], pairs: { s: number; d: number[] }[]): Batch {
  const sl = slices(pairs);
  return { kind, slices: sl, at: 0, walked: 0, total: sl.reduce((n, x) => n + x.d.length, 0), spentMs: 0 };
}

let started: Promise<void> = Promise.resolve();

function onMessage(m: ReachIn): void {
  switch (m.type) {
    case 'start':
      started = start(m);
      started.catch((e: unknown) => post({ type: 'error', message: e instanceof Error ? e.message : String(e) }));
      return;
    case 'findings':
      gotFindings(m.findings);
      return;
    case 'compute': {
      // A worker started again gets the request before its node is read: it waits for it.
      if (!model) {
        void started.then(() => onMessage(m), () => undefined);
        return;
      }
      const ok = (i: number, n: number) => Number.isInteger(i) && i >= 0 && i < n;
      const d = m.destinations.filter((x) => ok(x, dests.length));
      const pairs = m.sources.filter((s) => ok(s, sources.length)).map((s) => ({ s, d }));
      // What the user asked for goes before the rest of the first pass.
      queue.unshift(newBatch('asked', pairs));
      void pump();
      return;
    }
    case 'stop':
      for (const b of queue.splice(0)) finish(b, 'stopped');
      return;
  }
}

parentPort!.on('message', onMessage);
