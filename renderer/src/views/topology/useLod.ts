// How much of each node the graph draws at the current zoom (graph/lod.ts). Read from React Flow's
// store through selectors that change only in steps, so a zoom re-renders the graph a few times, not
// on every frame.
import { useStore } from '@xyflow/react';
import { detailScale, labelScale, lodFor, markScale, type Lod } from '../../graph/lod.ts';

export interface LodState {
  lod: Lod;
  /** How much labels are enlarged (compact: so they read at lod.LABEL_PX). */
  labelScale: number;
  /** How much the compact level's detail line is enlarged. */
  detailScale: number;
  /** The zoom, rounded down in steps of 0.02 (graph.css shrinks long labels with it, never below 9 px at the real zoom). */
  zoom: number;
  /** How much hop numbers and fault markers are enlarged. */
  markScale: number;
}

export function useLod(): LodState {
  const lod = useStore((s) => lodFor(s.transform[2]));
  const label = useStore((s) => labelScale(s.transform[2]));
  const detail = useStore((s) => detailScale(s.transform[2]));
  const mark = useStore((s) => markScale(s.transform[2]));
  const zoom = useStore((s) => Math.max(0.02, Math.floor(s.transform[2] * 50) / 50));
  return { lod, labelScale: label, detailScale: detail, markScale: mark, zoom };
}
