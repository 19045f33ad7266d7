// What the layout keeps per topology: the arrangement of its top level (stack-layout.ts's frame,
// from the instant barycentre order, then ELK's when it answers) and the boxes of every collapse
// state laid out so far, so folding a group back, or coming back to a state, costs nothing. Keyed
// by the topology object (one per bundle and load-balancer setting), dropped with it.
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';
import type { Box } from './elk-graph.ts';
import type { LayoutFrame } from './stack-layout.ts';

export interface LayoutEntry {
  frame: LayoutFrame;
  /** Where the frame's order came from: the instant barycentre order, or ELK's crossing minimisation. */
  order: 'instant' | 'elk';
  /** Boxes per collapse state (collapse-state.ts collapseKey). */
  boxes: Map<string, Record<string, Box>>;
}

/** Collapse states kept per topology; the oldest is dropped past this. */
const MAX_STATES = 24;

const cache = new WeakMap<TopologyGraph, LayoutEntry>();

export function layoutEntry(g: TopologyGraph): LayoutEntry | undefined {
  return cache.get(g);
}

export function setFrame(g: TopologyGraph, frame: LayoutFrame, order: LayoutEntry['order']): LayoutEntry {
  const entry: LayoutEntry = { frame, order, boxes: new Map() };
  cache.set(g, entry);
  return entry;
}

export function cachedBoxes(entry: LayoutEntry, key: string): Record<string, Box> | undefined {
  const b = entry.boxes.get(key);
  if (b) {
    // Most recently used last.
    entry.boxes.delete(key);
    entry.boxes.set(key, b);
  }
  return b;
}

export function keepBoxes(entry: LayoutEntry, key: string, boxes: Record<string, Box>): void {
  entry.boxes.set(key, boxes);
  while (entry.boxes.size > MAX_STATES) entry.boxes.delete(entry.boxes.keys().next().value!);
}
