// Rank 4: HNS load balancers (VIP → DIPs). Past a threshold they are folded into lb-group nodes by VIP
// block — aligned CIDR blocks, split in halves until a block holds at most MAX_PER_GROUP — so group
// ids stay the same when a service is added elsewhere, and each group draws one edge per DIP it reaches.
import type { HnsEndpoint, HnsLoadBalancer } from '../../parsers/hns/types.ts';
import { intToIpv4, ipv4ToInt } from '../../parsers/net/ip.ts';
import type { ObjectRef, TopologyOptions } from '../view-models/types.ts';
import type { TopoContext } from './context.ts';
import { addFlag, idOf } from './graph.ts';
import { RANK } from './host.ts';
import { isGuid, plural, protoName, shortGuid } from './labels.ts';
import { k8sNames } from '../k8s/index.ts';

export const DEFAULT_LB_GROUP_THRESHOLD = 150;
export const MAX_PER_GROUP = 100;

interface Dip {
  target: string;
  broken: boolean;
}

/** Where each DIP (endpoint ID) of a load balancer lands: a local or remote endpoint node, else a 'missing' node. */
function dipTargets(ctx: TopoContext, lb: HnsLoadBalancer, endpointById: Map<string, HnsEndpoint>, cache: Map<string, Dip>): Dip[] {
  const out: Dip[] = [];
  for (const raw of lb.endpointIds) {
    let dip = cache.get(raw);
    if (!dip) {
      dip = dipTarget(ctx, raw.toLowerCase(), endpointById);
      cache.set(raw, dip);
    }
    out.push(dip);
  }
  return out;
}

function dipTarget(ctx: TopoContext, id: string, endpointById: Map<string, HnsEndpoint>): Dip {
  const nodeId = idOf({ type: 'endpoint', id });
  if (endpointById.has(id) && ctx.g.has(nodeId)) return { target: nodeId, broken: false };
  // Not in the bundle: dangling when the endpoint list is there, merely unresolved when it is not.
  const known = ctx.m.endpoints !== null;
  const missing = `missing:${id}`;
  const node = ctx.g.node({
    id: missing,
    kind: 'remote-endpoint',
    label: isGuid(id) ? `${shortGuid(id)}…` : id,
    rank: RANK.remoteEndpoint,
    details: [known ? 'endpoint not in the bundle' : 'endpoint list not in the bundle'],
  });
  if (isGuid(id)) node.guid = id;
  addFlag(node, known ? 'dangling' : 'unresolved');
  return { target: missing, broken: known };
}

function vipLabel(v: string): string {
  return v.includes(':') ? `[${v}]` : v;
}

export function lbLabel(lb: HnsLoadBalancer): string {
  const vip = lb.vips[0] !== undefined ? vipLabel(lb.vips[0]) : '*';
  const p = lb.ports[0];
  const base = p ? `${vip}:${p.externalPort}/${protoName(p.protocol)}` : vip;
  const more = Math.max(lb.vips.length, 1) * Math.max(lb.ports.length, 1) - 1;
  return more > 0 ? `${base} +${more}` : base;
}

function lbDetails(lb: HnsLoadBalancer, dips: Dip[]): string[] {
  const d: string[] = [];
  if (lb.vips.length > 1) d.push(`VIPs ${lb.vips.join(', ')}`);
  if (!lb.vips.length) d.push('no VIP (all node addresses)');
  for (const p of lb.ports.slice(0, 8)) d.push(`${p.externalPort} → ${p.internalPort}/${protoName(p.protocol)}`);
  if (lb.ports.length > 8) d.push(`… ${lb.ports.length - 8} more ports`);
  const tags: string[] = [];
  if (lb.dsr) tags.push('DSR');
  if (lb.ports.some((p) => p.ilb)) tags.push('ILB');
  if (lb.ports.some((p) => p.localRoutedVip)) tags.push('local routed VIP');
  if (lb.ports.some((p) => p.preserveDip)) tags.push('preserve DIP');
  if (lb.ipv6) tags.push('IPv6');
  if (tags.length) d.push(tags.join(' · '));
  if (lb.sourceVip) d.push(`source VIP ${lb.sourceVip}`);
  const broken = dips.filter((x) => x.broken).length;
  d.push(`${plural(dips.length, 'DIP')}${broken ? ` (${broken} missing)` : ''}`);
  // v1 prints State 0 on every healthy load balancer: only other values say something.
  if (lb.state !== undefined && lb.state !== '' && lb.state !== 0) d.push(`state ${lb.state}`);
  if (lb.id) d.push(`ID ${shortGuid(lb.id)}${isGuid(lb.id) ? '…' : ''}`);
  return d;
}

function isDegraded(lb: HnsLoadBalancer): boolean {
  return typeof lb.state === 'string' && /degrad|fail|error/i.test(lb.state);
}

/** Adds the load balancers; returns true when they were collapsed into groups. */
export function addLoadBalancers(ctx: TopoContext, options: TopologyOptions): boolean {
  const lbs = ctx.m.loadBalancers ?? [];
  if (!lbs.length) return false;
  const endpointById = new Map((ctx.m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e]));
  const threshold = options.lbGroupThreshold ?? DEFAULT_LB_GROUP_THRESHOLD;
  const collapse = !options.expandLoadBalancers && lbs.length > threshold;
  const dipsOf = new Map<HnsLoadBalancer, Dip[]>();
  const cache = new Map<string, Dip>();
  for (const lb of lbs) dipsOf.set(lb, dipTargets(ctx, lb, endpointById, cache));

  if (!collapse) {
    for (const lb of lbs) addLoadBalancer(ctx, lb, dipsOf.get(lb)!);
    return false;
  }

  for (const grp of groupLoadBalancers(lbs)) {
    const node = ctx.g.node({ id: grp.id, kind: 'lb-group', label: grp.label, rank: RANK.lb, count: grp.lbs.length, details: [grp.summary] });
    node.members = grp.lbs.map((lb) => ({ type: 'loadbalancer', id: lb.id.toLowerCase() }));
    const protos = new Map<string, number>();
    for (const lb of grp.lbs) for (const p of lb.ports) protos.set(protoName(p.protocol), (protos.get(protoName(p.protocol)) ?? 0) + 1);
    if (protos.size) node.details.push([...protos].map(([k, v]) => `${v} ${k}`).join(' · '));
    const perTarget = new Map<string, { n: number; broken: boolean }>();
    let dipCount = 0;
    for (const lb of grp.lbs) {
      if (isDegraded(lb)) addFlag(node, 'degraded');
      for (const dip of dipsOf.get(lb)!) {
        dipCount++;
        const t = perTarget.get(dip.target) ?? { n: 0, broken: dip.broken };
        t.n++;
        perTarget.set(dip.target, t);
      }
    }
    const broken = [...perTarget.values()].filter((t) => t.broken).length;
    node.details.push(`${plural(dipCount, 'DIP')} → ${plural(perTarget.size, 'endpoint')}${broken ? ` (${broken} missing)` : ''}`);
    if (broken) addFlag(node, 'dangling');
    for (const [target, t] of perTarget) ctx.g.edge(node.id, target, 'lb-dip', { label: plural(t.n, 'LB'), summary: true, ...(t.broken ? { broken: true } : {}) });
    // The group's load balancers themselves, drawn when the group is opened.
    for (const lb of grp.lbs) addLoadBalancer(ctx, lb, dipsOf.get(lb)!, node.id);
  }
  return true;
}

/** One load balancer node with an lb-dip edge per DIP; `group`: it is a member of that lb-group (graph.attached). */
function addLoadBalancer(ctx: TopoContext, lb: HnsLoadBalancer, dips: Dip[], group?: string): void {
  const ref: ObjectRef = { type: 'loadbalancer', id: lb.id.toLowerCase() };
  const svc = k8sNames(ctx.m).lbLabel(lb);
  const detail = !!group;
  const node = ctx.g.node({ id: idOf(ref), kind: 'loadbalancer', label: lbLabel(lb), ref, rank: RANK.lb, details: svc ? [svc, ...lbDetails(lb, dips)] : lbDetails(lb, dips), ...(group ? { parent: group } : {}) }, detail);
  if (isGuid(lb.id)) node.guid = lb.id;
  if (dips.some((x) => x.broken)) addFlag(node, 'dangling');
  if (isDegraded(lb)) addFlag(node, 'degraded');
  for (const dip of dips) ctx.g.edge(node.id, dip.target, 'lb-dip', dip.broken ? { broken: true, label: 'missing' } : {}, detail);
}

export interface LbGroup {
  id: string;
  label: string;
  summary: string;
  lbs: HnsLoadBalancer[];
}

/**
 * Groups load balancers by the IPv4 block of their lowest VIP: per /16 first, each block split in
 * aligned halves while it holds more than MAX_PER_GROUP. Load balancers sharing one VIP past that
 * (NodePorts on the node IP), IPv6 and VIP-less ones are chunked by ID.
 */
export function groupLoadBalancers(lbs: HnsLoadBalancer[]): LbGroup[] {
  const v4: { lb: HnsLoadBalancer; ip: number }[] = [];
  const v6: HnsLoadBalancer[] = [];
  const none: HnsLoadBalancer[] = [];
  for (const lb of lbs) {
    let best: number | null = null;
    for (const v of lb.vips) {
      const n = ipv4ToInt(v);
      if (n !== null && (best === null || n < best)) best = n;
    }
    if (best !== null) v4.push({ lb, ip: best });
    else if (lb.vips.length) v6.push(lb);
    else none.push(lb);
  }
  v4.sort((a, b) => a.ip - b.ip || cmp(a.lb.id, b.lb.id));
  const out: LbGroup[] = [];
  const byBlock = new Map<number, typeof v4>();
  for (const x of v4) {
    const block = (x.ip & 0xffff0000) >>> 0;
    const list = byBlock.get(block);
    if (list) list.push(x);
    else byBlock.set(block, [x]);
  }
  for (const [block, list] of byBlock) split(list, block, 16, out);
  chunk(v6, 'ipv6', 'IPv6 VIPs', out);
  chunk(none, 'no-vip', 'no VIP', out);
  return out;
}

function split(list: { lb: HnsLoadBalancer; ip: number }[], network: number, len: number, out: LbGroup[]): void {
  if (list.length <= MAX_PER_GROUP || len >= 32) {
    const first = intToIpv4(network)!;
    const last = intToIpv4((network + 2 ** (32 - len) - 1) >>> 0)!;
    const cidr = `${first}/${len}`;
    const lbs = list.map((x) => x.lb);
    if (lbs.length <= MAX_PER_GROUP) {
      out.push({ id: `lb-group:${cidr}`, label: cidr, summary: `${len === 32 ? first : `${first}–${last}`}: ${plural(lbs.length, 'load balancer')}`, lbs });
    } else {
      // One VIP with more load balancers than a group holds (NodePorts): chunks of the same /32.
      const sorted = [...lbs].sort((a, b) => cmp(a.id, b.id));
      for (let i = 0, k = 1; i < sorted.length; i += MAX_PER_GROUP, k++) {
        const part = sorted.slice(i, i + MAX_PER_GROUP);
        out.push({ id: `lb-group:${cidr}#${k}`, label: `${first} (${k})`, summary: `${first}: ${plural(part.length, 'load balancer')}`, lbs: part });
      }
    }
    return;
  }
  const half = (network + 2 ** (31 - len)) >>> 0;
  const lo = list.filter((x) => x.ip < half);
  const hi = list.filter((x) => x.ip >= half);
  if (lo.length) split(lo, network, len + 1, out);
  if (hi.length) split(hi, half, len + 1, out);
}

function chunk(lbs: HnsLoadBalancer[], key: string, title: string, out: LbGroup[]): void {
  const sorted = [...lbs].sort((a, b) => cmp(a.id, b.id));
  for (let i = 0, k = 1; i < sorted.length; i += MAX_PER_GROUP, k++) {
    const part = sorted.slice(i, i + MAX_PER_GROUP);
    const label = sorted.length > MAX_PER_GROUP ? `${title} (${k})` : title;
    out.push({ id: `lb-group:${key}#${k}`, label, summary: `${title}: ${plural(part.length, 'load balancer')}`, lbs: part });
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
