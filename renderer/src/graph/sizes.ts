// Node sizes known before layout: ELK needs them, and the node components draw to the same numbers
// (fixed width, one line per detail) so labels never overflow a box ELK placed.
import type { TopoNode } from '../../../analysis/view-models/types.ts';

export const NODE_WIDTH = 248;
export const HEADER_H = 30;
export const LINE_H = 16;
export const FLAGS_H = 22;
/** Detail lines drawn on a node; the rest are in its tooltip and the inspector. */
export const MAX_DETAILS = 3;
export const GROUP_HEADER_H = 34;
export const GROUP_PAD = 12;

export function leafSize(n: TopoNode): { width: number; height: number } {
  const lines = Math.min(n.details.length, MAX_DETAILS);
  // The foot row (GUID chip, flags, kind) is always there.
  return { width: NODE_WIDTH, height: HEADER_H + lines * LINE_H + FLAGS_H + 8 };
}

export function collapsedGroupSize(): { width: number; height: number } {
  return { width: NODE_WIDTH, height: GROUP_HEADER_H + LINE_H + 12 };
}
