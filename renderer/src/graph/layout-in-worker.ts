// The renderer's side of the layout worker: one worker for the app, requests numbered so a layout
// that finishes after a newer one was asked for is ignored. A new request while ELK is busy with a
// big graph terminates the worker instead of queueing behind it.
import type { Box, ElkNodeJson } from './elk-graph.ts';
import type { LayoutRequest, LayoutResponse } from './layout.worker.ts';

let worker: Worker | undefined;
let busy = false;
let seq = 0;
const pending = new Map<number, { resolve: (b: Record<string, Box>) => void; reject: (e: Error) => void }>();

function spawn(): Worker {
  const w = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (ev: MessageEvent<LayoutResponse>) => {
    busy = false;
    const p = pending.get(ev.data.id);
    pending.delete(ev.data.id);
    if (!p) return;
    if ('error' in ev.data) p.reject(new Error(ev.data.error));
    else p.resolve(ev.data.boxes);
  };
  w.onerror = (ev) => {
    busy = false;
    const err = new Error(ev.message || 'the layout worker failed to start');
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = undefined;
  };
  return w;
}

export class LayoutSuperseded extends Error {
  override name = 'LayoutSuperseded';
}

export function layoutInWorker(graph: ElkNodeJson): Promise<Record<string, Box>> {
  if (worker && busy) {
    // ELK cannot be interrupted; dropping the worker is the only way to stop a stale layout.
    worker.terminate();
    worker = undefined;
    for (const p of pending.values()) p.reject(new LayoutSuperseded('superseded'));
    pending.clear();
  }
  worker ??= spawn();
  const id = ++seq;
  busy = true;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    const req: LayoutRequest = { id, graph };
    worker!.postMessage(req);
  });
}
