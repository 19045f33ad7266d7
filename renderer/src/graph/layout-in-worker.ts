// The renderer's side of the layout worker: one worker for the app, requests numbered so an answer
// that arrives after a newer request is ignored. A new request while ELK is busy terminates the
// worker instead of queueing behind it, and so does a request that gets no answer within its time
// limit: ELK cannot be interrupted, and a layout must end in an answer or an error, never hang.
import type { ElkNodeJson } from './elk-graph.ts';
import type { LayoutRequest, LayoutResponse } from './layout.worker.ts';

let worker: Worker | undefined;
let busy = false;
let seq = 0;
const pending = new Map<number, { resolve: (y: Record<string, number>) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();

/** ELK on a few hundred nodes takes a few seconds on a busy machine; a minute means it is stuck. */
export const LAYOUT_TIME_LIMIT_MS = 60_000;

function settle(id: number): { resolve: (y: Record<string, number>) => void; reject: (e: Error) => void } | undefined {
  const p = pending.get(id);
  if (!p) return undefined;
  clearTimeout(p.timer);
  pending.delete(id);
  return p;
}

function failAll(err: Error): void {
  for (const id of [...pending.keys()]) settle(id)?.reject(err);
}

function drop(): void {
  worker?.terminate();
  worker = undefined;
  busy = false;
}

function spawn(): Worker {
  const w = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (ev: MessageEvent<LayoutResponse>) => {
    busy = false;
    const p = settle(ev.data.id);
    if (!p) return;
    if ('error' in ev.data) p.reject(new Error(ev.data.error));
    else p.resolve(ev.data.y);
  };
  w.onerror = (ev) => {
    ev.preventDefault();
    drop();
    failAll(new Error(ev.message || 'the layout worker failed to start'));
  };
  return w;
}

export class LayoutSuperseded extends Error {
  override name = 'LayoutSuperseded';
}

/** ELK's y for each top-level node of `graph`. Rejects with the worker's error, on the time limit, or
 *  with LayoutSuperseded when a newer request replaced it. */
export function layoutInWorker(graph: ElkNodeJson, limitMs = LAYOUT_TIME_LIMIT_MS): Promise<Record<string, number>> {
  if (worker && busy) {
    drop();
    failAll(new LayoutSuperseded('superseded'));
  }
  worker ??= spawn();
  const id = ++seq;
  busy = true;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (!pending.has(id)) return;
      drop();
      settle(id)?.reject(new Error(`the layout took more than ${Math.round(limitMs / 1000)} s and was stopped`));
    }, limitMs);
    pending.set(id, { resolve, reject, timer });
    const req: LayoutRequest = { id, graph };
    worker!.postMessage(req);
  });
}
