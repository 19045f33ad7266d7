// Lays out the visible graph in the worker. Big graphs show the instant column layout first so the
// canvas is never blank while ELK works; a failing worker leaves that layout in place and says so.
import { useEffect, useState } from 'react';
import type { VisibleGraph } from './visible-graph.ts';
import { ELK_MAX_NODES, toElkGraph, type Box } from './elk-graph.ts';
import { fallbackLayout } from './fallback-layout.ts';
import { layoutInWorker, LayoutSuperseded } from './layout-in-worker.ts';

export interface LayoutState {
  boxes?: Record<string, Box>;
  /** 'grid': too big for ELK, the column layout is final. 'fallback': the worker failed. */
  status: 'idle' | 'running' | 'done' | 'grid' | 'fallback';
  error?: string;
  /** Changes whenever new boxes arrive (the camera places the first view of a graph, and again when
   *  the final layout replaces the instant one: views/topology/useCamera.ts). */
  version: number;
}

const INSTANT_ABOVE = 250;

export function useLayout(vis: VisibleGraph | undefined): LayoutState {
  const [state, setState] = useState<LayoutState>({ status: 'idle', version: 0 });
  useEffect(() => {
    if (!vis || !vis.nodes.length) {
      setState((s) => ({ status: 'idle', version: s.version + 1 }));
      return;
    }
    if (vis.nodes.length > ELK_MAX_NODES) {
      setState((s) => ({ boxes: fallbackLayout(vis), status: 'grid', version: s.version + 1 }));
      return;
    }
    let live = true;
    if (vis.nodes.length > INSTANT_ABOVE) setState((s) => ({ boxes: fallbackLayout(vis), status: 'running', version: s.version + 1 }));
    else setState((s) => ({ ...s, status: 'running' }));
    layoutInWorker(toElkGraph(vis))
      .then((boxes) => live && setState((s) => ({ boxes, status: 'done', version: s.version + 1 })))
      .catch((e: unknown) => {
        if (!live || e instanceof LayoutSuperseded) return;
        setState((s) => ({ boxes: fallbackLayout(vis), status: 'fallback', error: e instanceof Error ? e.message : String(e), version: s.version + 1 }));
      });
    return () => {
      live = false;
    };
  }, [vis]);
  return state;
}
