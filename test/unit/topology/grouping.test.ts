// Big nodes: load balancers folded into lb-group nodes, one aggregated edge per group → DIP pair.
import { describe, expect, it } from 'vitest';
import { buildTopology, groupLoadBalancers, MAX_PER_GROUP } from '../../../analysis/topology.ts';
import type { HnsLoadBalancer } from '../../../parsers/hns/types.ts';
import { expectValidGraph, generated, nodesOf } from './helpers.ts';

describe('a medium node (40 pods, 400 services) with threshold 100', () => {
  const { node, model } = generated({ seed: 5, pods: 40, services: 400, remoteNodes: 3 });
  const lbs = node.expected.loadBalancers;
  const g = buildTopology(model, { lbGroupThreshold: 100 });

  it('collapses the load balancers into groups of at most 100', () => {
    expect(lbs.length).toBeGreaterThan(100);
    expectValidGraph(g);
    expect(g.collapsed).toBe(true);
    expect(nodesOf(g, 'loadbalancer')).toEqual([]);
    const groups = nodesOf(g, 'lb-group');
    expect(groups.length).toBeGreaterThan(1);
    let total = 0;
    const members = new Set<string>();
    for (const grp of groups) {
      expect(grp.count).toBeGreaterThan(0);
      expect(grp.count).toBeLessThanOrEqual(MAX_PER_GROUP);
      expect(grp.members!.length).toBe(grp.count);
      expect(grp.rank).toBe(4);
      expect(grp.details[0]).toMatch(/^\d+\.\d+\.\d+\.\d+(–\d+\.\d+\.\d+\.\d+)?: \d+ load balancers?$/);
      total += grp.count!;
      for (const m of grp.members!) {
        expect(m.type).toBe('loadbalancer');
        members.add(m.id);
      }
    }
    expect(total).toBe(lbs.length);
    expect([...members].sort()).toEqual(lbs.map((l) => l.id.toLowerCase()).sort());
  });

  it('puts each load balancer in the group whose VIP block holds its VIP', () => {
    for (const grp of nodesOf(g, 'lb-group')) {
      const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(grp.label);
      if (!m) continue;
      const [a, b, c, d] = m[1].split('.').map(Number);
      const net = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
      const len = Number(m[2]);
      for (const ref of grp.members!) {
        const lb = lbs.find((l) => l.id.toLowerCase() === ref.id)!;
        const [w, x, y, z] = lb.vips[0].split('.').map(Number);
        const ip = ((w << 24) | (x << 16) | (y << 8) | z) >>> 0;
        expect(Math.floor(ip / 2 ** (32 - len)), `${lb.vips[0]} in ${grp.label}`).toBe(Math.floor(net / 2 ** (32 - len)));
      }
    }
  });

  it('draws one lb-dip edge per group and DIP endpoint, covering every DIP', () => {
    const groups = nodesOf(g, 'lb-group');
    const groupOf = new Map<string, string>();
    for (const grp of groups) for (const m of grp.members!) groupOf.set(m.id, grp.id);
    const pairs = new Set(g.edges.filter((e) => e.kind === 'lb-dip').map((e) => `${e.source}|${e.target}`));
    expect(pairs.size).toBe(g.edges.filter((e) => e.kind === 'lb-dip').length);
    const want = new Set<string>();
    for (const lb of lbs) for (const dip of lb.endpointIds) want.add(`${groupOf.get(lb.id.toLowerCase())}|endpoint:${dip.toLowerCase()}`);
    expect([...pairs].sort()).toEqual([...want].sort());
    for (const e of g.edges.filter((x) => x.kind === 'lb-dip')) expect(e.label).toMatch(/^\d+ LBs?$/);
  });

  it('keeps each group’s load balancers as attached children with their own DIP edges, the group’s edges marked as their summary', () => {
    const groups = nodesOf(g, 'lb-group');
    const attached = g.attached!;
    for (const grp of groups) {
      const kids = attached.nodes.filter((n) => n.parent === grp.id);
      expect(kids.map((n) => n.ref!.id).sort()).toEqual(grp.members!.map((m) => m.id).sort());
      for (const k of kids) expect(k.kind).toBe('loadbalancer');
    }
    // Every DIP of every load balancer is an attached edge from the load balancer's own node.
    for (const lb of lbs) {
      const from = `loadbalancer:${lb.id.toLowerCase()}`;
      const targets = attached.edges.filter((e) => e.source === from && e.kind === 'lb-dip').map((e) => e.target);
      expect(targets.sort()).toEqual([...new Set(lb.endpointIds.map((x) => `endpoint:${x.toLowerCase()}`))].sort());
    }
    for (const e of g.edges.filter((x) => x.kind === 'lb-dip')) expect(e.summary).toBe(true);
  });

  it('collapses by default past 150 and expands on request', () => {
    expect(buildTopology(model).collapsed).toBe(true);
    const open = buildTopology(model, { lbGroupThreshold: 100, expandLoadBalancers: true });
    expectValidGraph(open);
    expect(open.collapsed).toBe(false);
    expect(nodesOf(open, 'loadbalancer').length).toBe(lbs.length);
    expect(nodesOf(open, 'lb-group')).toEqual([]);
    expect(open.attached!.nodes.filter((n) => n.kind === 'loadbalancer')).toEqual([]);
    expect(open.edges.some((e) => e.summary)).toBe(false);
    expect(buildTopology(model, { lbGroupThreshold: 10_000 }).collapsed).toBe(false);
  });

  it('keeps the group ids stable and the graph small', () => {
    expect(buildTopology(model, { lbGroupThreshold: 100 }).nodes.map((n) => n.id)).toEqual(g.nodes.map((n) => n.id));
    expect(g.nodes.length).toBeLessThan(lbs.length);
  });

  it('carries a dangling DIP into the group as a broken edge', () => {
    const { model: faulty } = generated({ seed: 5, pods: 40, services: 400, remoteNodes: 3, faults: ['stale-lb-dip'] });
    const fg = buildTopology(faulty, { lbGroupThreshold: 100 });
    expectValidGraph(fg);
    const broken = fg.edges.filter((e) => e.broken);
    expect(broken.length).toBeGreaterThan(0);
    for (const e of broken) {
      expect(fg.nodes.find((n) => n.id === e.source)!.kind).toBe('lb-group');
      expect(fg.nodes.find((n) => n.id === e.source)!.flags).toContain('dangling');
      expect(fg.nodes.find((n) => n.id === e.target)!.flags).toContain('dangling');
    }
  });
});

describe('groupLoadBalancers', () => {
  const lb = (id: string, vips: string[]): HnsLoadBalancer => ({ id, schema: 2, vips, ports: [{ protocol: 6, internalPort: 80, externalPort: 80 }], dsr: false, ipv6: false, endpointIds: [], policies: [], raw: null, src: { file: 'policy.txt', line: 1 } });
  const id = (i: number) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`;

  it('keeps a small /16 whole and splits a big one into aligned halves', () => {
    const list = [
      ...Array.from({ length: 5 }, (_, i) => lb(id(i), [`10.100.0.${i + 1}`])),
      ...Array.from({ length: 150 }, (_, i) => lb(id(100 + i), [`10.96.${i < 75 ? 0 : 200}.${(i % 75) + 1}`])),
    ];
    const groups = groupLoadBalancers(list);
    expect(groups.map((x) => [x.label, x.lbs.length])).toEqual([
      ['10.96.0.0/17', 75],
      ['10.96.128.0/17', 75],
      ['10.100.0.0/16', 5],
    ]);
    expect(groups[0].summary).toBe('10.96.0.0–10.96.127.255: 75 load balancers');
  });

  it('chunks one VIP with more than a group holds, IPv6 VIPs and VIP-less load balancers', () => {
    const list = [
      ...Array.from({ length: 230 }, (_, i) => lb(id(i), ['10.240.0.4'])),
      lb(id(900), ['fd00::10']),
      lb(id(901), []),
    ];
    const groups = groupLoadBalancers(list);
    expect(groups.map((x) => [x.id, x.lbs.length])).toEqual([
      ['lb-group:10.240.0.4/32#1', 100],
      ['lb-group:10.240.0.4/32#2', 100],
      ['lb-group:10.240.0.4/32#3', 30],
      ['lb-group:ipv6#1', 1],
      ['lb-group:no-vip#1', 1],
    ]);
    expect(new Set(groups.map((x) => x.id)).size).toBe(groups.length);
  });

  it('groups a load balancer with several VIPs by its lowest', () => {
    const groups = groupLoadBalancers([lb(id(1), ['10.97.0.1', '10.96.0.9'])]);
    expect(groups[0].label).toBe('10.96.0.0/16');
  });
});
