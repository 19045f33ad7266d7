// The summary layer, drawn below the minimum readable zoom instead of nodes whose text would be a
// few pixels high: each column of the graph as a block with what it holds counted ("251 pods",
// "2,000 load balancers in 56 groups") and how many of its objects have findings, over the nodes
// drawn as plain boxes (coloured by kind, red or amber when a finding is about them, outlined when a
// walk passes), so the shape of the node stays readable. Pure: counts come from the whole graph,
// boxes from the layout.
import type { TopoNode, TopologyGraph } from '../../../analysis/view-models/types.ts';
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';
import type { FaultMarks, FaultSeverity } from './fault-marks.ts';
import { absoluteBox } from './viewport.ts';
import { plural } from '../lib/format.ts';
import { COLUMN_COUNT, COLUMN_TITLES, columnOf } from './columns.ts';

export interface SummaryColumn {
  column: number;
  title: string;
  /** Around the column's nodes, in flow coordinates. */
  box: Box;
  /** What it holds, counted, one line per kind of object. */
  lines: string[];
  /** Drawn nodes of the column that a finding is about, by severity. */
  faults: { error: number; warning: number };
}

export interface SummaryRect extends Box {
  id: string;
  kind: TopoNode['kind'];
  /** An open group (drawn as a frame around its children). */
  frame: boolean;
  fault?: FaultSeverity;
  /** On the walked path: its hop numbers. */
  hops?: number[];
}

export interface SummaryModel {
  columns: SummaryColumn[];
  rects: SummaryRect[];
  /** Around everything, in flow coordinates. */
  bounds: Box;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The counted lines of each column, from the whole graph (what is folded counts too). */
export function columnCounts(g: Pick<TopologyGraph, 'nodes'>): string[][] {
  const k = new Map<string, number>();
  let lbInGroups = 0;
  let missing = 0;
  for (const n of g.nodes) {
    k.set(n.kind, (k.get(n.kind) ?? 0) + 1);
    if (n.kind === 'lb-group') lbInGroups += n.count ?? 0;
    if (n.id.startsWith('missing:')) missing++;
  }
  const c = (kind: TopoNode['kind']) => k.get(kind) ?? 0;
  const lines: string[][] = Array.from({ length: COLUMN_COUNT }, () => []);
  const add = (col: number, n: number, one: string, many?: string) => {
    if (n) lines[col].push(plural(n, one, many));
  };
  add(0, c('uplink'), 'uplink');
  add(0, c('vswitch'), 'vSwitch', 'vSwitches');
  add(0, c('network'), 'HNS network');
  add(1, c('endpoint'), 'endpoint');
  add(1, c('host-vnic'), 'host vNIC');
  add(1, c('compartment'), 'compartment');
  add(1, c('vfp-port'), 'VFP port');
  const lbs = Math.max(c('loadbalancer'), lbInGroups);
  if (lbs) lines[2].push(c('lb-group') ? `${plural(lbs, 'load balancer')} in ${plural(c('lb-group'), 'group')}` : plural(lbs, 'load balancer'));
  add(3, c('remote-endpoint') - missing, 'remote endpoint');
  if (missing) lines[3].push(`${fmt(missing)} not in the bundle`);
  add(4, c('remote-subnet'), 'remote subnet');
  add(4, c('next-hop'), 'next hop');
  return lines;
}

export function summaryModel(
  g: Pick<TopologyGraph, 'nodes'>,
  vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>,
  boxes: Record<string, Box>,
  marks?: FaultMarks,
  walk?: ReadonlyMap<string, number[]>,
): SummaryModel | undefined {
  const counts = columnCounts(g);
  const rects: SummaryRect[] = [];
  const cols = new Map<number, { x1: number; y1: number; x2: number; y2: number; error: number; warning: number }>();
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const n of vis.nodes) {
    const b = absoluteBox(boxes, vis, n.id);
    if (!b) continue;
    const fault = marks?.nodes.get(n.id)?.severity;
    const hops = walk?.get(n.id);
    rects.push({ id: n.id, kind: n.kind, ...b, frame: vis.openGroups.has(n.id), ...(fault ? { fault } : {}), ...(hops ? { hops } : {}) });
    x1 = Math.min(x1, b.x);
    y1 = Math.min(y1, b.y);
    x2 = Math.max(x2, b.x + b.width);
    y2 = Math.max(y2, b.y + b.height);
    const c = columnOf(n);
    const col = cols.get(c) ?? { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity, error: 0, warning: 0 };
    col.x1 = Math.min(col.x1, b.x);
    col.y1 = Math.min(col.y1, b.y);
    col.x2 = Math.max(col.x2, b.x + b.width);
    col.y2 = Math.max(col.y2, b.y + b.height);
    if (fault) col[fault]++;
    cols.set(c, col);
  }
  if (!rects.length) return undefined;
  const columns = [...cols.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([c, v]) => ({ column: c, title: COLUMN_TITLES[c], box: { x: v.x1, y: v.y1, width: v.x2 - v.x1, height: v.y2 - v.y1 }, lines: counts[c], faults: { error: v.error, warning: v.warning } }));
  return { columns, rects, bounds: { x: x1, y: y1, width: x2 - x1, height: y2 - y1 } };
}

/** The layer's text size on screen, in pixels (graph.css .summary-card). */
export const SUMMARY_TEXT_PX = 13;

/** A card's size on screen, over-estimated from its text. */
export function cardSize(c: Pick<SummaryColumn, 'title' | 'lines' | 'faults'>): { width: number; height: number } {
  const lines = [c.title, ...c.lines, ...(c.faults.error ? ['0000 with errors'] : []), ...(c.faults.warning ? ['0000 with warnings'] : [])];
  const chars = Math.max(...lines.map((l) => l.length));
  return { width: Math.ceil(chars * SUMMARY_TEXT_PX * 0.62 + 24), height: Math.ceil(lines.length * SUMMARY_TEXT_PX * 1.3 + 16) };
}

/** Between the canvas' edges and the cards, and between two cards, in screen pixels. */
export const CARD_GAP = 8;

export interface CardPlace {
  row: number;
  /** On the canvas, in screen pixels. */
  left: number;
  top: number;
  width: number;
}

/**
 * Where each column's card goes: on the canvas (screen pixels), in rows along its top, in column
 * order. Each card goes above its column's centre, or just after the card before it when that is
 * in the way; a row that runs past the canvas' right edge is moved left as far as its first card
 * allows, and past that the card starts the next row. So no two cards overlap and none is cut off.
 * `height` is the room the rows take from the canvas' top (the summary's fit leaves it free:
 * camera-moves.ts placeMove).
 */
export function cardLayout(columns: readonly Pick<SummaryColumn, 'box' | 'title' | 'lines' | 'faults'>[], vp: { x: number; zoom: number }, canvasWidth: number): { places: CardPlace[]; height: number } {
  const rowHeight = Math.max(0, ...columns.map((c) => cardSize(c).height)) + CARD_GAP;
  const right = canvasWidth - CARD_GAP;
  const rows: CardPlace[][] = [];
  const places = columns.map((c) => {
    const width = cardSize(c).width;
    const centred = (c.box.x + c.box.width / 2) * vp.zoom + vp.x - width / 2;
    const row = rows[rows.length - 1];
    const last = row?.[row.length - 1];
    let left = Math.max(CARD_GAP, centred, last ? last.left + last.width + CARD_GAP : CARD_GAP);
    const over = left + width - right;
    if (row && over > 0) {
      const room = row[0].left - CARD_GAP;
      if (room >= over) {
        for (const p of row) p.left -= over;
        left -= over;
      } else {
        const place = { row: rows.length, left: Math.max(CARD_GAP, Math.min(centred, right - width)), top: CARD_GAP + rows.length * rowHeight, width };
        rows.push([place]);
        return place;
      }
    }
    left = Math.max(CARD_GAP, Math.min(left, right - width));
    const place = { row: row ? rows.length - 1 : 0, left, top: CARD_GAP + (row ? rows.length - 1 : 0) * rowHeight, width };
    if (row) row.push(place);
    else rows.push([place]);
    return place;
  });
  return { places, height: columns.length ? CARD_GAP + rows.length * rowHeight : 0 };
}
