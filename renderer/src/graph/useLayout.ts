// Lays out the visible graph. Once per topology the top level is arranged (layout-cache.ts): the
// instant barycentre order, refined by ELK in the worker on graphs small enough for it; a graph ELK
// answers quickly for is shown once, in ELK's order, others show the instant order meanwhile. Every
// collapse state is then stacked from that arrangement on the main thread (stack-layout.ts: only
// what was opened or folded moves), and cached. A failing or stuck worker leaves the instant order in
// place and says so, with a retry; nothing waits without an end.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';
import { visibleGraph, type VisibleGraph } from './visible-graph.ts';
import { ELK_MAX_NODES, toElkGraph, type Box } from './elk-graph.ts';
import { barycentreOrder, orderFromPositions } from './column-order.ts';
import { makeFrame, reshapeFrame, stackLayout } from './stack-layout.ts';
import { cachedBoxes, keepBoxes, layoutEntry, setFrame } from './layout-cache.ts';
import { defaultCollapsed, foldable } from './collapse-state.ts';
import { layoutInWorker, LayoutSuperseded } from './layout-in-worker.ts';
import { collapsedGroupSize, leafSize } from './sizes.ts';

export interface LayoutState {
  boxes?: Record<string, Box>;
  /** running: ELK is ordering the top level (`nodes` of them, since `startedAt`); failed: it could not (`error`). */
  status: 'idle' | 'running' | 'done' | 'failed';
  nodes: number;
  startedAt?: number;
  error?: string;
  /** Changes when the arrangement of the top level changes (the camera places the first view of a
   *  graph, and again when ELK's order replaces the instant one: views/topology/useCamera.ts). */
  version: number;
  /** Asks ELK again after a failure. */
  retry(): void;
  /** The canvas changed shape: splits the columns again for it, keeping their order. Returns whether
   *  the arrangement changed (its version then changes too). */
  reshape(): boolean;
}

/** A graph ELK orders within this long is shown once, in ELK's order; otherwise the instant order shows meanwhile. */
const WAIT_FOR_ELK_MS = 400;

/** The top level with every group and port folded: what the column order is computed over. */
function skeletonOf(full: TopologyGraph): VisibleGraph {
  const { groups, hosts } = foldable(full);
  return visibleGraph(full, new Set([...groups, ...hosts]));
}

/**
 * The boxes of the visible graph, stacked from the topology's frame (cached per folding). `frameVersion`
 * is not read: it is the arrangement's version, passed so that a new frame gives new boxes.
 */
function boxesOf(full: TopologyGraph | undefined, vis: VisibleGraph | undefined, key: string, frameVersion: number): Record<string, Box> | undefined {
  void frameVersion;
  if (!full || !vis) return undefined;
  const entry = layoutEntry(full);
  if (!entry) return undefined;
  const known = cachedBoxes(entry, key);
  if (known) return known;
  const b = stackLayout(vis, entry.frame);
  keepBoxes(entry, key, b);
  return b;
}

export function useLayout(full: TopologyGraph | undefined, vis: VisibleGraph | undefined, key: string, aspect: () => number): LayoutState {
  const [run, setRun] = useState<{ status: LayoutState['status']; nodes: number; startedAt?: number; error?: string; version: number }>({ status: 'idle', nodes: 0, version: 0 });
  const [attempt, setAttempt] = useState(0);
  const aspectRef = useRef(aspect);
  aspectRef.current = aspect;

  useEffect(() => {
    if (!full || !full.nodes.length) {
      setRun((r) => ({ status: 'idle', nodes: 0, version: r.version + 1 }));
      return;
    }
    if (layoutEntry(full)?.order === 'elk') {
      setRun((r) => ({ status: 'done', nodes: 0, version: r.version + 1 }));
      return;
    }
    const skel = skeletonOf(full);
    // The arrangement is made from the default folding, whatever is folded now.
    const first = visibleGraph(full, defaultCollapsed(full));
    const instant = () => layoutEntry(full) ?? setFrame(full, makeFrame(first, barycentreOrder(skel), aspectRef.current()), 'instant');
    if (skel.nodes.length > ELK_MAX_NODES) {
      instant();
      setRun((r) => ({ status: 'done', nodes: 0, version: r.version + 1 }));
      return;
    }
    let live = true;
    const startedAt = Date.now();
    setRun((r) => ({ status: 'running', nodes: skel.nodes.length, startedAt, version: r.version }));
    // A slow answer: show the instant order meanwhile.
    const timer = setTimeout(() => {
      if (!live || layoutEntry(full)) return;
      instant();
      setRun((r) => ({ ...r, version: r.version + 1 }));
    }, WAIT_FOR_ELK_MS);
    const sizeOf = (n: (typeof skel.nodes)[number]) => (skel.collapsedGroups.has(n.id) ? collapsedGroupSize() : leafSize(n));
    layoutInWorker(toElkGraph(skel, sizeOf))
      .then((y) => {
        if (!live) return;
        setFrame(full, makeFrame(first, orderFromPositions(skel, y), aspectRef.current()), 'elk');
        setRun((r) => ({ status: 'done', nodes: 0, version: r.version + 1 }));
      })
      .catch((e: unknown) => {
        if (!live || e instanceof LayoutSuperseded) return;
        instant();
        setRun((r) => ({ status: 'failed', nodes: 0, error: e instanceof Error ? e.message : String(e), version: r.version + 1 }));
      });
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [full, attempt]);

  // The frame lives in the layout cache, outside React: its version is what tells the memo it changed.
  const boxes = useMemo(() => boxesOf(full, vis, key, run.version), [full, vis, key, run.version]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const reshape = useCallback(() => {
    const entry = full && layoutEntry(full);
    if (!full || !entry) return false;
    const frame = reshapeFrame(visibleGraph(full, defaultCollapsed(full)), entry.frame, aspectRef.current());
    if (!frame) return false;
    setFrame(full, frame, entry.order);
    setRun((r) => ({ ...r, version: r.version + 1 }));
    return true;
  }, [full]);
  return { boxes, status: run.status, nodes: run.nodes, startedAt: run.startedAt, error: run.error, version: run.version, retry, reshape };
}
