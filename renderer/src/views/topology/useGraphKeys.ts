// The graph from the keyboard. Tab and Shift+Tab walk the nodes in reading order (graph/focus-order.ts)
// — React Flow draws only what is on screen, so the graph moves the focus itself and the camera
// brings the next node into view first; past the last node the focus leaves the graph as usual.
// Enter or Space chooses the focused node (selects it: the inspector opens; in pick mode it fills
// the walk), → opens what it holds (a group, a port, then a pod's compartment), ← folds it. A node focused any other way (a
// click, the browser's own Tab into the canvas) is brought into view too.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { Box } from '../../graph/elk-graph.ts';
import type { VisibleGraph } from '../../graph/visible-graph.ts';
import type { FlowNode } from '../../graph/to-flow.ts';
import { focusOrder, nextInOrder } from '../../graph/focus-order.ts';
import { groupToggles } from '../../graph/group-toggles.ts';
import { expanderOf } from '../../graph/TopoNodeView.tsx';
import type { ActivateNode } from './useNodeClick.ts';

const nodeSelector = (id: string) => `.react-flow__node[data-id="${CSS.escape(id)}"]`;

/** Tries for this many frames to focus a node the camera is bringing into view (it is drawn once on screen). */
const FOCUS_FRAMES = 90;

export function useGraphKeys(
  wrapRef: RefObject<HTMLDivElement | null>,
  vis: VisibleGraph | undefined,
  boxes: Record<string, Box> | undefined,
  nodes: readonly FlowNode[],
  reveal: (id: string) => void,
  activate: ActivateNode,
): void {
  const drawn = !!vis;
  const order = useRef<string[]>([]);
  const state = useRef({ vis, boxes, nodes, reveal, activate });
  state.current = { vis, boxes, nodes, reveal, activate };
  useEffect(() => {
    order.current = vis && boxes ? focusOrder(boxes, vis) : [];
  }, [vis, boxes]);

  // A node the keyboard moved to: focused as soon as React Flow draws it.
  const focusWhenDrawn = useCallback(
    (id: string) => {
      let frames = 0;
      const tryFocus = () => {
        const el = wrapRef.current?.querySelector<HTMLElement>(nodeSelector(id));
        if (el) {
          el.focus({ preventScroll: true });
          return;
        }
        if (++frames < FOCUS_FRAMES) requestAnimationFrame(tryFocus);
      };
      tryFocus();
    },
    [wrapRef],
  );

  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    const nodeOf = (t: EventTarget | null): HTMLElement | null => (t instanceof HTMLElement && t.classList.contains('react-flow__node') ? t : null);
    const onKey = (e: KeyboardEvent) => {
      const el = nodeOf(e.target);
      const id = el?.dataset.id;
      if (!el || !id || e.ctrlKey || e.metaKey) return;
      const node = state.current.nodes.find((n) => n.id === id);
      if (e.key === 'Tab') {
        const next = nextInOrder(order.current, id, e.shiftKey);
        if (!next) return; // past the ends: the focus leaves the graph
        e.preventDefault();
        e.stopPropagation();
        state.current.reveal(next);
        focusWhenDrawn(next);
        return;
      }
      if (!node) return;
      if (e.key === 'Enter' || e.key === ' ') {
        // Ours, not React Flow's own selection (which the app does not use).
        e.preventDefault();
        e.stopPropagation();
        state.current.activate(node.data, e.altKey);
        return;
      }
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        const x = expanderOf(id, node.data);
        const open = e.key === 'ArrowRight';
        e.preventDefault();
        e.stopPropagation();
        if (x && x.open !== open) x.onClick();
        // → on a pod drawn without its compartment (its port already open, or none): the compartment.
        else if (open && node.data.frame) groupToggles.toggle?.(node.data.frame.id);
        else if (!open && node.data.openGroup) groupToggles.toggle?.(id);
        else if (!open && node.parentId) {
          // ← on a node inside an open group folds the group and moves the focus to it.
          groupToggles.toggle?.(node.parentId);
          focusWhenDrawn(node.parentId);
        }
      }
    };
    const onFocus = (e: FocusEvent) => {
      const el = nodeOf(e.target);
      // Keyboard focus only: a click focuses the node too, and must not move the camera.
      if (el?.dataset.id && el.matches(':focus-visible')) state.current.reveal(el.dataset.id);
    };
    // Capture: before React Flow's own key handling on the node.
    wrap.addEventListener('keydown', onKey, true);
    wrap.addEventListener('focusin', onFocus);
    return () => {
      wrap.removeEventListener('keydown', onKey, true);
      wrap.removeEventListener('focusin', onFocus);
    };
    // drawn: the canvas (wrapRef) exists only once there is a graph to draw.
  }, [wrapRef, focusWhenDrawn, drawn]);
}
