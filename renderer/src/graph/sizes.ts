// Node sizes known before layout: the layout needs them, and the node components draw to the same
// numbers (fixed width, one line per detail) so nothing overflows a box the layout placed.
import type { TopoNode } from '../../../analysis/view-models/types.ts';

export const NODE_WIDTH = 200;
export const PAD_Y = 4;
export const HEADER_H = 22;
export const LINE_H = 15;
export const FOOT_H = 18;
/** Detail lines drawn on a node; the rest are in its tooltip and the inspector. */
export const MAX_DETAILS = 2;
export const GROUP_HEADER_H = 30;
export const GROUP_PAD = 10;
/** Between the children of an open group. */
export const GROUP_GAP = 8;

export function leafSize(n: Pick<TopoNode, 'details'>): { width: number; height: number } {
  const lines = Math.min(n.details.length, MAX_DETAILS);
  // The foot row (kind, flags, what is folded inside) is always there.
  return { width: NODE_WIDTH, height: 2 * PAD_Y + HEADER_H + lines * LINE_H + FOOT_H + 2 };
}

/** A folded group: a header and a line. */
export function collapsedGroupSize(): { width: number; height: number } {
  return { width: NODE_WIDTH, height: 2 * PAD_Y + HEADER_H + LINE_H + FOOT_H + 2 };
}
