// The graph's layout without a DOM: five columns, crowded ones split to the canvas' shape, each
// column ordered so edges cross less, stacked from one arrangement per topology so opening a group
// moves only what is below or right of it, and never two boxes on each other.
import { describe, expect, it } from 'vitest';
import type { TopoNode } from '../../../analysis/view-models/types.ts';
import { visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { columnOf, columnSplit, COLUMN_COUNT } from '../../../renderer/src/graph/columns.ts';
import { barycentreOrder, orderFromPositions, stackChains } from '../../../renderer/src/graph/column-order.ts';
import { reshapeFrame, stackLayout } from '../../../renderer/src/graph/stack-layout.ts';
import { defaultCollapsed } from '../../../renderer/src/graph/collapse-state.ts';
import { absoluteBox, graphBounds } from '../../../renderer/src/graph/viewport.ts';
import { cachedBoxes, keepBoxes, layoutEntry, setFrame } from '../../../renderer/src/graph/layout-cache.ts';
import { DETAIL_ZOOM, labelScale, lodFor, MIN_READABLE_ZOOM, LABEL_PX } from '../../../renderer/src/graph/lod.ts';
import type { Box } from '../../../renderer/src/graph/elk-graph.ts';
import { frameOf, layoutOf } from './graph-helpers.ts';
import { syntheticTopology } from './topology-fixture.ts';

const EP0 = 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd';

/** No two boxes of the same level (top level, or children of one group) overlap. */
function expectNoOverlap(boxes: Record<string, Box>, nodes: readonly TopoNode[], openGroups: ReadonlySet<string>) {
  const levels = new Map<string, string[]>();
  for (const n of nodes) {
    if (!boxes[n.id]) continue;
    const p = n.parent && openGroups.has(n.parent) ? n.parent : '';
    levels.set(p, [...(levels.get(p) ?? []), n.id]);
  }
  for (const ids of levels.values()) {
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = boxes[ids[i]];
        const b = boxes[ids[j]];
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${ids[i]} and ${ids[j]} overlap`).toBe(true);
      }
    }
  }
}

describe('columns', () => {
  it('puts uplink, vSwitch and networks in one column, subnets with their next hops in the last', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((rank) => columnOf({ rank }))).toEqual([0, 0, 0, 1, 2, 3, 4, 4]);
    expect(columnOf({ rank: 99 })).toBe(COLUMN_COUNT - 1);
  });

  it('splits the crowded columns so the graph comes near the canvas’ shape', () => {
    const heights = [[60, 60, 60], Array(250).fill(80), Array(20).fill(80), Array(50).fill(60), [60, 60]];
    const wide = columnSplit(heights, 216, 2);
    const tall = columnSplit(heights, 216, 0.5);
    // 250 pods never stay one column 20,000 px tall; a wider canvas gets more, shorter sub-columns.
    expect(wide[1]).toBeGreaterThan(tall[1]);
    expect(tall[1]).toBeGreaterThan(1);
    // Columns of a node or two are never split.
    expect(wide[0]).toBe(1);
    expect(wide[4]).toBe(1);
    // Balanced: no column is left much taller than the rest.
    const h = (c: number, k: number) => (heights[c].reduce((a, b) => a + b + 12, 0) / k);
    expect(h(3, wide[3])).toBeLessThan(h(1, wide[1]) * 1.6);
  });

  it('keeps a small graph in one sub-column per column', () => {
    expect(columnSplit([[60], [80, 80], [80], [60], []], 216, 1.5)).toEqual([1, 1, 1, 1, 0]);
  });
});

describe('order within columns', () => {
  it('stacks each chain under the node that leads to it, uplinks first', () => {
    const n = (id: string, rank: number): TopoNode => ({ id, kind: 'network', label: id, details: [], flags: [], rank });
    const col = [n('nat', 2), n('net', 2), n('sw', 1), n('up', 0)];
    const edges = [
      { id: '1', source: 'up', target: 'sw', kind: 'uplink' as const },
      { id: '2', source: 'sw', target: 'net', kind: 'attach' as const },
    ];
    expect(stackChains(col, edges).map((x) => x.id)).toEqual(['up', 'sw', 'net', 'nat']);
  });

  it('places a load balancer near the pods it sends to', () => {
    const g = syntheticTopology(6, 0);
    const eps = g.nodes.filter((x) => x.kind === 'endpoint').map((x) => x.id);
    // lbA → the last pod, lbB → the first: B should come before A.
    for (const [id, target] of [['loadbalancer:a', eps[5]], ['loadbalancer:b', eps[0]]] as const) {
      g.nodes.push({ id, kind: 'loadbalancer', label: id, details: [], flags: [], rank: 4 });
      g.edges.push({ id: `lb-dip:${id}`, source: id, target, kind: 'lb-dip' });
    }
    const skel = visibleGraph(g, new Set(g.nodes.filter((x) => x.kind === 'compartment').map((x) => x.id)));
    const order = barycentreOrder(skel);
    expect(order[2]).toEqual(['loadbalancer:b', 'loadbalancer:a']);
    expect(order[0]).toEqual(['uplink:eth', 'vswitch:1', 'network:n1']);
  });

  it('orders each column as ELK placed it', () => {
    const g = syntheticTopology(2, 0);
    const skel = visibleGraph(g, new Set(['compartment:2', 'compartment:3']));
    const [a, b] = g.nodes.filter((n) => n.kind === 'endpoint').map((n) => n.id);
    expect(orderFromPositions(skel, { [a]: 50, [b]: 10 })[1]).toEqual([b, a]);
  });
});

describe('stacked layout', () => {
  it('splits the same arrangement again for another canvas shape, keeping each column’s order', () => {
    const g = syntheticTopology(30, 40, { ports: true });
    const vis = visibleGraph(g, defaultCollapsed(g));
    const wide = frameOf(g, 2.2);
    const subs = (f: { columns: string[][][] }) => f.columns.map((c) => c.length);
    // A narrower canvas (the side panel opened): fewer sub-columns, the same order top to bottom.
    const narrow = reshapeFrame(vis, wide, 0.9)!;
    expect(narrow).toBeDefined();
    expect(subs(narrow).reduce((a, b) => a + b)).toBeLessThan(subs(wide).reduce((a, b) => a + b));
    narrow.columns.forEach((c, i) => expect(c.flat()).toEqual(wide.columns[i].flat()));
    // Back to the first shape: the first split; the same shape again: nothing to change.
    expect(subs(reshapeFrame(vis, narrow, 2.2)!)).toEqual(subs(wide));
    expect(reshapeFrame(vis, wide, 2.2)).toBeUndefined();
    expectNoOverlap(stackLayout(vis, narrow), vis.nodes, vis.openGroups);
  });

  it('lays the columns out left to right with nothing on top of anything, at every folding', () => {
    const g = syntheticTopology(40, 30, { ports: true, lbGroup: true });
    const frame = frameOf(g, 1.6);
    for (const collapsed of [new Set<string>(), new Set(['lb-group:0']), new Set(g.nodes.filter((n) => n.kind === 'compartment').map((n) => n.id))]) {
      const vis = visibleGraph(g, collapsed);
      const boxes = stackLayout(vis, frame);
      for (const n of vis.nodes) expect(boxes[n.id], n.id).toBeDefined();
      expectNoOverlap(boxes, vis.nodes, vis.openGroups);
      // Columns in order: every uplink left of every pod, every pod left of every load balancer, …
      const x = (kind: string) => vis.nodes.filter((n) => n.kind === kind && !(n.parent && vis.openGroups.has(n.parent))).map((n) => absoluteBox(boxes, vis, n.id)!.x);
      const tops = (kind: string) => vis.nodes.filter((n) => n.kind === kind).map((n) => absoluteBox(boxes, vis, n.id)!);
      expect(Math.max(...x('uplink'))).toBeLessThan(Math.min(...tops('endpoint').map((b) => b.x)));
      expect(Math.max(...tops('endpoint').map((b) => b.x))).toBeLessThan(Math.min(...tops('remote-endpoint').map((b) => b.x)));
      // A group is as big as what it holds.
      for (const id of vis.openGroups) {
        const gb = boxes[id];
        for (const c of vis.nodes.filter((n) => n.parent === id)) {
          const cb = boxes[c.id];
          expect(cb.x + cb.width, `${c.id} in ${id}`).toBeLessThanOrEqual(gb.width);
          expect(cb.y + cb.height, `${c.id} in ${id}`).toBeLessThanOrEqual(gb.height);
        }
      }
    }
  });

  it('opening a pod’s compartment puts its frame where the pod was and moves only what is below it', () => {
    const g = syntheticTopology(6, 3, { ports: true });
    const frame = frameOf(g);
    const pod = 'endpoint:00000002-aaaa-bbbb-cccc-dddddddddddd';
    const shut = new Set([...g.nodes.filter((n) => n.kind === 'compartment').map((n) => n.id), pod]);
    const before = layoutOf(g, shut, frame);
    const after = layoutOf(g, new Set([...shut].filter((id) => id !== 'compartment:4')), frame);
    // Drawn as the pod before; the pod inside its frame after, the frame where the pod was.
    expect(before['compartment:4']).toBeUndefined();
    const opened = before[pod];
    expect(after['compartment:4'].x).toBe(opened.x);
    expect(after['compartment:4'].y).toBe(opened.y);
    expect(after['compartment:4'].height).toBeGreaterThan(opened.height);
    for (const [id, b] of Object.entries(before)) {
      if (id === pod || !after[id]) continue;
      const a = after[id];
      const sameColumn = b.x === opened.x;
      if (sameColumn && b.y < opened.y) expect(a, `${id} above it stays`).toEqual(b);
      if (sameColumn && b.y > opened.y) expect(a.y, `${id} below it moves down`).toBeGreaterThan(b.y);
      if (b.x < opened.x) expect(a, `${id} left of it stays`).toEqual(b);
    }
  });

  it('draws an opened port right under its endpoint, in the endpoint’s compartment', () => {
    const g = syntheticTopology(1, 0, { ports: true });
    const vis = visibleGraph(g, new Set());
    const boxes = layoutOf(g, new Set());
    const ep = boxes[EP0];
    const port = boxes['port:p0'];
    expect(vis.nodes.find((n) => n.id === 'port:p0')!.parent).toBe('compartment:2');
    expect(port.x).toBe(ep.x);
    expect(port.y).toBeGreaterThanOrEqual(ep.y + ep.height);
  });

  it('lays out a big graph in one linear pass, well inside a frame’s time', () => {
    const g = syntheticTopology(800, 1500, { ports: true, lbGroup: true });
    const frame = frameOf(g, 1.6);
    const vis = visibleGraph(g, new Set());
    const boxes = stackLayout(vis, frame);
    expect(Object.keys(boxes).length).toBe(vis.nodes.length);
    const b = graphBounds(boxes, vis)!;
    // Split to the canvas' shape: not a column 100,000 px tall.
    expect(b.height).toBeLessThan(b.width * 3);
  });
});

describe('layout cache', () => {
  it('keeps the boxes of each collapse state of a topology until it is replaced', () => {
    const g = syntheticTopology(2, 1);
    expect(layoutEntry(g)).toBeUndefined();
    const e = setFrame(g, frameOf(g), 'instant');
    expect(layoutEntry(g)).toBe(e);
    const b = layoutOf(g, new Set());
    keepBoxes(e, 'k', b);
    expect(cachedBoxes(e, 'k')).toBe(b);
    expect(cachedBoxes(e, 'other')).toBeUndefined();
    for (let i = 0; i < 40; i++) keepBoxes(e, `s${i}`, b);
    // Bounded: the oldest states are dropped.
    expect(e.boxes.size).toBeLessThanOrEqual(24);
    expect(cachedBoxes(e, 'k')).toBeUndefined();
  });
});

describe('level of detail', () => {
  it('draws details at a readable zoom, the enlarged label below it, the summary below the minimum', () => {
    expect(lodFor(1)).toBe('detail');
    expect(lodFor(DETAIL_ZOOM)).toBe('detail');
    expect(lodFor(0.5)).toBe('compact');
    expect(lodFor(MIN_READABLE_ZOOM)).toBe('compact');
    expect(lodFor(MIN_READABLE_ZOOM - 0.01)).toBe('summary');
  });

  it('enlarges the label so it never reads smaller than LABEL_PX on screen, in steps', () => {
    for (const z of [0.34, 0.4, 0.55, 0.7]) expect(13 * labelScale(z) * z).toBeGreaterThanOrEqual(LABEL_PX - 0.35);
    expect(labelScale(1.5)).toBe(1);
    expect(labelScale(0.5) * 20).toBe(Math.round(labelScale(0.5) * 20));
  });
});
