// Runs ELK off the UI thread: the renderer posts the top level of the graph as ELK JSON, the worker
// answers with the y of each node (the order within each column is what the renderer uses).
// elk.bundled.js carries its own "fake worker"; loaded inside a worker it also installs
// self.onmessage for itself, so ours is assigned after the import and replaces it.
import ELK from 'elkjs/lib/elk.bundled.js';
import { positionsFromElk, type ElkNodeJson } from './elk-graph.ts';

export interface LayoutRequest {
  id: number;
  graph: ElkNodeJson;
}

export type LayoutResponse = { id: number; y: Record<string, number>; ms: number } | { id: number; error: string };

const elk = new ELK();

self.onmessage = async (ev: MessageEvent<LayoutRequest>) => {
  const { id, graph } = ev.data;
  const t0 = performance.now();
  try {
    const out = await elk.layout(graph as Parameters<typeof elk.layout>[0]);
    const msg: LayoutResponse = { id, y: positionsFromElk(out as ElkNodeJson), ms: Math.round(performance.now() - t0) };
    self.postMessage(msg);
  } catch (e) {
    const msg: LayoutResponse = { id, error: e instanceof Error ? e.message : String(e) };
    self.postMessage(msg);
  }
};
