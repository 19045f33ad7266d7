// How much of each node the graph draws at the current zoom (graph/lod.ts). The level (detail,
// compact, summary) is React state read through a selector that changes only at its thresholds: a
// zoom re-renders the graph when it crosses one, not on every frame. The sizes graph.css scales text
// and marks with (--label-scale, --detail-scale, --mark-scale, --zoom) are written straight onto the
// canvas's element from React Flow's store, in steps, without rendering anything: the camera's
// animated fit (a walk, a finding, Fit) used to re-render the whole graph on each of its frames.
import { useEffect, useLayoutEffect, type RefObject } from 'react';
import { useStore, useStoreApi } from '@xyflow/react';
import { detailScale, labelScale, lodFor, markScale, type Lod } from '../../graph/lod.ts';

/** The CSS variables graph.css reads at a zoom, each in the steps graph/lod.ts rounds to. */
export function zoomVars(zoom: number): Record<'--label-scale' | '--detail-scale' | '--mark-scale' | '--zoom', string> {
  return {
    '--label-scale': String(labelScale(zoom)),
    '--detail-scale': String(detailScale(zoom)),
    '--mark-scale': String(markScale(zoom)),
    // Rounded down in steps of 0.02 (graph.css shrinks long labels with it, never below 9 px at the real zoom).
    '--zoom': String(Math.max(0.02, Math.floor(zoom * 50) / 50)),
  };
}

function applyVars(el: HTMLElement, zoom: number): void {
  for (const [name, value] of Object.entries(zoomVars(zoom))) {
    // Only a changed value is written: each write restyles the nodes that read it.
    if (el.style.getPropertyValue(name) !== value) el.style.setProperty(name, value);
  }
}

/** The level of detail; keeps the canvas element's zoom variables up to date. */
export function useLod(wrapRef: RefObject<HTMLElement | null>): Lod {
  const lod = useStore((s) => lodFor(s.transform[2]));
  const store = useStoreApi();
  // After every render: the canvas element may be new (the graph was replaced) and must not wait
  // for the next zoom to get its variables.
  useLayoutEffect(() => {
    if (wrapRef.current) applyVars(wrapRef.current, store.getState().transform[2]);
  });
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if (s.transform[2] !== prev.transform[2] && wrapRef.current) applyVars(wrapRef.current, s.transform[2]);
      }),
    [store, wrapRef],
  );
  return lod;
}
