// Pictures for reports, drawn as SVG text here (no browser, no layout library): the node's topology
// in columns by rank with the chosen paths drawn over it, and each path as a vertical chain of the
// objects it crosses. Readable up to ~100 objects; above that only the paths, their neighbours and
// the node's skeleton (uplink, vSwitch, networks, host vNICs) are drawn, and the picture says so.
import type { TopoNode, TopologyGraph } from '../view-models/types.ts';
import type { WalkResult } from '../walk/types.ts';

export const PATH_COLORS = ['#d93025', '#1a73e8', '#188038', '#e37400', '#9334e6', '#007b83'];
/** The colour of the i-th walk drawn (the palette repeats). */
export const pathColor = (i: number): string => PATH_COLORS[i % PATH_COLORS.length] ?? '#d93025';

const FONT = "font-family='Segoe UI, Helvetica, Arial, sans-serif'";
const MONO = "font-family='Consolas, Menlo, monospace'";

export function xml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Cuts a string to `n` characters (an ellipsis marks the cut). Widths are estimated, not measured. */
function fit(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, Math.max(1, n - 1))}…`;
}

/** Splits text into at most `max` lines of `width` characters, at spaces when it can. */
export function wrap(s: string, width: number, max: number): string[] {
  const out: string[] = [];
  let rest = s.trim();
  while (rest && out.length < max) {
    if (rest.length <= width) {
      out.push(rest);
      rest = '';
      break;
    }
    let cut = rest.lastIndexOf(' ', width);
    if (cut < width / 2) cut = width;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest && out.length) out[out.length - 1] = fit(`${out[out.length - 1]} ${rest}`, width);
  return out;
}

const KIND_FILL: Record<string, string> = {
  uplink: '#e8f0fe',
  vswitch: '#e8eaed',
  network: '#e8f0fe',
  'host-vnic': '#e6f4ea',
  compartment: '#f8f9fa',
  endpoint: '#e6f4ea',
  loadbalancer: '#fef7e0',
  'lb-group': '#fef7e0',
  'remote-endpoint': '#f3e8fd',
  'remote-subnet': '#fce8e6',
  'next-hop': '#e8eaed',
};
const KIND_NAME: Record<string, string> = {
  uplink: 'uplink',
  vswitch: 'vSwitch',
  network: 'HNS network',
  'host-vnic': 'host vNIC',
  compartment: 'compartment',
  endpoint: 'pod endpoint',
  loadbalancer: 'load balancer',
  'lb-group': 'load balancers',
  'remote-endpoint': 'remote endpoint',
  'remote-subnet': 'remote subnet',
  'next-hop': 'next hop',
};
const BAD_FLAGS = ['blocked', 'dangling', 'degraded', 'no-port', 'no-adapter', 'apipa', 'unresolved'];

export interface SvgPath {
  /** Topology node ids in order (WalkResult.path). */
  nodes: string[];
  label: string;
  color: string;
}

export interface TopologySvgOptions {
  paths?: SvgPath[];
  /** Ids a path names that the graph draws under another id (a local endpoint's VFP port → its endpoint node). */
  aliases?: Map<string, string>;
  /** Above this many nodes the picture is summarised (default 100). */
  maxNodes?: number;
  title?: string;
}

export interface TopologySvg {
  svg: string;
  nodes: number;
  shown: number;
  summarised: boolean;
}

const BOX_W = 152;
const COL_GAP = 40;
const V_GAP = 8;
const FRAME_PAD = 6;
const FRAME_HEAD = 18;

interface Placed {
  x: number;
  y: number;
  w: number;
  h: number;
  col: number;
  frame: boolean;
}

function boxHeight(n: TopoNode): number {
  return 24 + 13 * Math.min(2, n.details.length) + 4;
}

export function topologySvg(g: TopologyGraph, opts: TopologySvgOptions = {}): TopologySvg {
  const max = opts.maxNodes ?? 100;
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const alias = (id: string) => opts.aliases?.get(id) ?? id;
  // Compartments are frames around their endpoint here: a path through both would loop on itself.
  const paths = (opts.paths ?? []).map((p) => ({ ...p, nodes: dedupe(p.nodes.map(alias).filter((id) => byId.has(id) && byId.get(id)!.kind !== 'compartment')) }));
  const onPath = new Set(paths.flatMap((p) => p.nodes));

  // Which nodes to draw.
  let keep: Set<string>;
  let summarised = false;
  if (g.nodes.length <= max) keep = new Set(g.nodes.map((n) => n.id));
  else {
    summarised = true;
    keep = new Set(g.nodes.filter((n) => ['uplink', 'vswitch', 'network', 'host-vnic'].includes(n.kind)).map((n) => n.id));
    for (const id of onPath) keep.add(id);
    for (const e of g.edges) {
      if (keep.size >= max) break;
      if (onPath.has(e.source)) keep.add(e.target);
      else if (onPath.has(e.target)) keep.add(e.source);
    }
    if (!onPath.size) for (const n of g.nodes) if (keep.size < max) keep.add(n.id);
    // A kept node's frame (compartment, lb-group) is kept with it.
    for (const id of [...keep]) {
      const p = byId.get(id)?.parent;
      if (p && byId.has(p)) keep.add(p);
    }
  }
  const shownNodes = g.nodes.filter((n) => keep.has(n.id));
  const children = new Map<string, TopoNode[]>();
  for (const n of shownNodes) if (n.parent && keep.has(n.parent)) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);

  // Columns by rank; within a column, graph order; a node with shown children is a frame around them.
  const ranks = [...new Set(shownNodes.filter((n) => !(n.parent && keep.has(n.parent))).map((n) => n.rank))].sort((a, b) => a - b);
  const colOf = new Map(ranks.map((r, i) => [r, i]));
  const placed = new Map<string, Placed>();
  const legendH = paths.length ? 20 * paths.length + 10 : 0;
  // A band above the boxes where paths that go back to a column on the left run (one lane per path).
  const laneH = paths.length ? 6 * paths.length + 8 : 0;
  const top = (opts.title ? 28 : 8) + legendH + laneH;
  const colY = ranks.map(() => top);
  for (const n of shownNodes) {
    if (n.parent && keep.has(n.parent)) continue;
    const col = colOf.get(n.rank)!;
    const x = 10 + col * (BOX_W + COL_GAP);
    let y = colY[col] ?? top;
    const kids = children.get(n.id);
    if (kids?.length) {
      const fy = y;
      y += FRAME_HEAD;
      for (const k of kids) {
        const h = boxHeight(k);
        placed.set(k.id, { x: x + FRAME_PAD, y, w: BOX_W - 2 * FRAME_PAD, h, col, frame: false });
        y += h + 4;
      }
      y += FRAME_PAD - 4;
      placed.set(n.id, { x, y: fy, w: BOX_W, h: y - fy, col, frame: true });
    } else {
      const h = boxHeight(n);
      placed.set(n.id, { x, y, w: BOX_W, h, col, frame: false });
      y += h;
    }
    colY[col] = y + V_GAP;
  }
  const width = 20 + Math.max(1, ranks.length) * (BOX_W + COL_GAP) - COL_GAP;
  const footer = summarised ? 24 : 0;
  const height = Math.max(...colY, top + 20) + 6 + footer;

  const out: string[] = [];
  out.push(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${width} ${height}' width='${width}' height='${height}' role='img' aria-label='${xml(opts.title ?? 'node topology')}' ${FONT} font-size='12'>`);
  out.push(`<rect x='0' y='0' width='${width}' height='${height}' fill='#ffffff'/>`);
  if (opts.title) out.push(`<text x='10' y='18' font-size='14' font-weight='600' fill='#202124'>${xml(opts.title)}</text>`);
  paths.forEach((p, i) => {
    const y = (opts.title ? 28 : 8) + 20 * i;
    out.push(`<rect x='10' y='${y + 4}' width='22' height='6' rx='2' fill='${p.color}'/><text x='40' y='${y + 12}' fill='#202124'>${xml(fit(p.label, 140))}</text>`);
  });

  // Frames first (behind), then edges, then boxes, then the paths over everything.
  for (const n of shownNodes) {
    const p = placed.get(n.id);
    if (!p?.frame) continue;
    out.push(`<rect x='${p.x}' y='${p.y}' width='${p.w}' height='${p.h}' rx='6' fill='${KIND_FILL[n.kind] ?? '#f8f9fa'}' stroke='${onPath.has(n.id) ? '#5f6368' : '#dadce0'}' stroke-dasharray='${n.kind === 'compartment' ? '4 3' : ''}'/>`);
    out.push(`<text x='${p.x + 6}' y='${p.y + 13}' font-size='11' fill='#5f6368'>${xml(fit(`${n.label}${n.details[0] ? ` · ${n.details[0]}` : ''}`, 32))}</text>`);
  }
  for (const e of g.edges) {
    const a = placed.get(e.source);
    const b = placed.get(e.target);
    if (!a || !b) continue;
    out.push(`<path d='${curve(a, b)}' fill='none' stroke='${e.broken ? '#d93025' : '#bdc1c6'}' stroke-width='1'${e.broken ? " stroke-dasharray='5 3'" : ''}/>`);
  }
  for (const n of shownNodes) {
    const p = placed.get(n.id);
    if (!p || p.frame) continue;
    const bad = n.flags.some((f) => BAD_FLAGS.includes(f));
    const hi = paths.find((x) => x.nodes.includes(n.id));
    out.push(`<g><title>${xml(`${KIND_NAME[n.kind] ?? n.kind}: ${n.label}\n${n.details.join('\n')}`)}</title>`);
    out.push(`<rect x='${p.x}' y='${p.y}' width='${p.w}' height='${p.h}' rx='4' fill='${KIND_FILL[n.kind] ?? '#ffffff'}' stroke='${hi ? hi.color : bad ? '#d93025' : '#9aa0a6'}' stroke-width='${hi ? 2.5 : 1}'/>`);
    const chars = Math.floor((p.w - 12) / 6.8);
    out.push(`<text x='${p.x + 6}' y='${p.y + 10}' font-size='8.5' fill='#5f6368' letter-spacing='0.3'>${xml(fit((KIND_NAME[n.kind] ?? n.kind).toUpperCase() + (bad ? ` · ${n.flags.filter((f) => BAD_FLAGS.includes(f)).join(', ')}` : ''), chars + 8))}</text>`);
    out.push(`<text x='${p.x + 6}' y='${p.y + 23}' font-weight='600' fill='#202124'>${xml(fit(n.label, chars))}</text>`);
    n.details.slice(0, 2).forEach((d, i) => out.push(`<text x='${p.x + 6}' y='${p.y + 36 + 13 * i}' font-size='10.5' fill='#3c4043'>${xml(fit(d, chars + 3))}</text>`));
    out.push('</g>');
  }
  paths.forEach((p, k) => {
    const lane = top - laneH + 4 + 6 * k;
    for (let i = 1; i < p.nodes.length; i++) {
      // '' is no node's id: a missing element gives no box, and no arrow.
      const a = placed.get(p.nodes[i - 1] ?? '');
      const b = placed.get(p.nodes[i] ?? '');
      if (!a || !b) continue;
      const d = a.col > b.col ? backLane(a, b, lane, k) : curve(a, b);
      out.push(`<path d='${d}' fill='none' stroke='${p.color}' stroke-width='3' stroke-opacity='0.85' stroke-linejoin='round' marker-end='url(#arrow-${p.color.slice(1)})'/>`);
    }
  });
  if (paths.length) {
    out.push('<defs>');
    for (const c of new Set(paths.map((p) => p.color))) out.push(`<marker id='arrow-${c.slice(1)}' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='5' markerHeight='5' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' fill='${c}'/></marker>`);
    out.push('</defs>');
  }
  if (summarised) out.push(`<text x='10' y='${height - 8}' font-size='11' fill='#5f6368'>Showing ${shownNodes.length} of ${g.nodes.length} objects: the chosen paths, their neighbours and the node's uplink, vSwitch, networks and host vNICs.</text>`);
  out.push('</svg>');
  return { svg: out.join(''), nodes: g.nodes.length, shown: shownNodes.length, summarised };
}

/** A path back to a column on the left: up through the gap beside the box, along its lane above all boxes, down beside the target. */
function backLane(a: Placed, b: Placed, lane: number, k: number): string {
  const ay = a.frame ? a.y + 9 : a.y + a.h / 2;
  const by = b.frame ? b.y + 9 : b.y + b.h / 2;
  const x1 = a.x - 6 - 4 * k;
  const x2 = b.x + b.w + 6 + 4 * k;
  return `M${a.x},${ay} L${x1},${ay} L${x1},${lane} L${x2},${lane} L${x2},${by} L${b.x + b.w + 1},${by}`;
}

function dedupe(ids: string[]): string[] {
  return ids.filter((id, i) => id !== ids[i - 1]);
}

/** A curve from one box to another: right edge → left edge across columns, around the right side within one. */
function curve(a: Placed, b: Placed): string {
  const ay = a.frame ? a.y + 9 : a.y + a.h / 2;
  const by = b.frame ? b.y + 9 : b.y + b.h / 2;
  if (a.col < b.col) {
    const x1 = a.x + a.w;
    const x2 = b.x;
    const d = (x2 - x1) / 2;
    return `M${x1},${ay} C${x1 + d},${ay} ${x2 - d},${by} ${x2},${by}`;
  }
  if (a.col > b.col) {
    const x1 = a.x;
    const x2 = b.x + b.w;
    const d = (x1 - x2) / 2;
    return `M${x1},${ay} C${x1 - d},${ay} ${x2 + d},${by} ${x2},${by}`;
  }
  const x = Math.max(a.x + a.w, b.x + b.w);
  const bend = 18 + Math.min(40, Math.abs(by - ay) / 8);
  return `M${a.x + a.w},${ay} C${x + bend},${ay} ${x + bend},${by} ${b.x + b.w},${by}`;
}

export interface ChainStep {
  kind: string;
  label: string;
  detail?: string;
  /** What happened to the packet on the way to the next step (rewrites, the deciding rule). */
  next?: string[];
}

/** The steps of a walk: the topology objects it crosses, with the rewrites made between them. */
export function chainSteps(t: WalkResult, g: TopologyGraph, aliases?: Map<string, string>): ChainStep[] {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const steps: ChainStep[] = [];
  // Each object once, where the packet first reaches it: a pod's own port hops name the pod again.
  const seen = new Set<string>();
  for (const h of t.hops) {
    const ids = (h.nodes ?? []).map((id) => aliases?.get(id) ?? id);
    let rewriteAt: number | undefined;
    for (const id of ids) {
      if (seen.has(id)) continue;
      const n = byId.get(id);
      if (!n) continue;
      seen.add(id);
      steps.push({ kind: KIND_NAME[n.kind] ?? n.kind, label: n.label, detail: n.details[0] });
      // A DNAT happens at the load balancer: its arrow leads to the backend it chose.
      if (n.kind === 'loadbalancer' || n.kind === 'lb-group') rewriteAt = steps.length - 1;
    }
    if (!steps.length) steps.push({ kind: 'source', label: t.flow.srcIp, detail: h.at });
    const what = hopChange(h);
    const at = steps[rewriteAt ?? steps.length - 1];
    if (what && at) (at.next ??= []).push(what);
  }
  return steps;
}

function hopChange(h: WalkResult['hops'][number]): string | undefined {
  const r = h.rewrite;
  const parts: string[] = [];
  if (r?.dstIp || r?.dstPort !== undefined) parts.push(`DNAT dst → ${r.dstIp ?? h.before?.dstIp ?? ''}${r.dstPort !== undefined ? `:${r.dstPort}` : ''}`);
  if (r?.srcIp || r?.srcPort !== undefined) parts.push(`SNAT src → ${r.srcIp ?? h.before?.srcIp ?? ''}${r.srcPort !== undefined ? `:${r.srcPort}` : ''}`);
  if (r?.srcMac) parts.push(`src MAC → ${r.srcMac}`);
  if (r?.dstMac) parts.push(`dst MAC → ${r.dstMac}`);
  if (r?.encap) parts.push(`${r.encap.type} to ${r.encap.dstIp}${r.encap.vni !== undefined ? ` VNI ${r.encap.vni}` : ''}`);
  if (h.kind === 'host-route') parts.push(`host route: ${h.action}`);
  if (h.kind === 'drop') parts.push(`DROP${h.rule ? ` by ${h.rule}` : ''}`);
  return parts.length ? parts.join('; ') : undefined;
}

const VERDICT_FILL: Record<string, string> = { delivered: '#e6f4ea', forwarded: '#e8f0fe', dropped: '#fce8e6', unknown: '#fef7e0' };
const VERDICT_STROKE: Record<string, string> = { delivered: '#188038', forwarded: '#1a73e8', dropped: '#d93025', unknown: '#e37400' };

/** One walk as a vertical chain: object boxes, arrows labelled with the rewrites, the verdict last. */
export function pathSvg(t: WalkResult, steps: ChainStep[], color = PATH_COLORS[0], idSuffix = '0'): string {
  const marker = `chain-arrow-${idSuffix}`;
  const W = 640;
  const BW = 250;
  const BH = 44;
  const x = 10;
  const out: string[] = [];
  let y = 10;
  const body: string[] = [];
  steps.forEach((s, i) => {
    body.push(`<rect x='${x}' y='${y}' width='${BW}' height='${BH}' rx='5' fill='#ffffff' stroke='${color}' stroke-width='1.5'/>`);
    body.push(`<text x='${x + 8}' y='${y + 12}' font-size='8.5' fill='#5f6368' letter-spacing='0.3'>${xml(`${i + 1}. ${s.kind.toUpperCase()}`)}</text>`);
    body.push(`<text x='${x + 8}' y='${y + 26}' font-weight='600' fill='#202124'>${xml(fit(s.label, 34))}</text>`);
    if (s.detail) body.push(`<text x='${x + 8}' y='${y + 39}' font-size='10.5' fill='#3c4043'>${xml(fit(s.detail, 40))}</text>`);
    y += BH;
    const lines = (s.next ?? []).flatMap((n) => wrap(n, 56, 2)).slice(0, 4);
    const gap = Math.max(30, 14 * lines.length + 10);
    body.push(`<line x1='${x + BW / 2}' y1='${y}' x2='${x + BW / 2}' y2='${y + gap - 3}' stroke='${color}' stroke-width='2' marker-end='url(#${marker})'/>`);
    lines.forEach((l, j) => body.push(`<text x='${x + BW / 2 + 14}' y='${y + 14 + 14 * j}' font-size='11' fill='#202124' ${MONO}>${xml(l)}</text>`));
    y += gap;
  });
  const v = t.verdict;
  const reason = wrap(t.reason, 92, 2);
  const vh = 22 + 14 * reason.length + 6;
  body.push(`<rect x='${x}' y='${y}' width='${W - 20}' height='${vh}' rx='5' fill='${VERDICT_FILL[v]}' stroke='${VERDICT_STROKE[v]}' stroke-width='1.5'/>`);
  body.push(`<text x='${x + 8}' y='${y + 17}' font-weight='700' fill='${VERDICT_STROKE[v]}'>${xml(v.toUpperCase())}</text>`);
  reason.forEach((l, j) => body.push(`<text x='${x + 8}' y='${y + 32 + 14 * j}' font-size='11' fill='#202124'>${xml(l)}</text>`));
  y += vh + 10;
  out.push(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${W} ${y}' width='${W}' height='${y}' role='img' aria-label='${xml(`path of ${t.flow.proto} ${t.flow.srcIp} to ${t.flow.dstIp}`)}' ${FONT} font-size='12'>`);
  out.push(`<defs><marker id='${marker}' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' markerHeight='6' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='${color}'/></marker></defs>`);
  out.push(`<rect x='0' y='0' width='${W}' height='${y}' fill='#ffffff'/>`);
  out.push(...body, '</svg>');
  return out.join('');
}
