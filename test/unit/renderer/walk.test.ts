// The packet walk's and the findings' pure helpers and store slices, over a fake API.
import { describe, expect, it, vi } from 'vitest';
import type { WalkHop, WalkResult } from '../../../analysis/walk/types.ts';
import type { FindingView } from '../../../analysis/findings/types.ts';
import type { SandboxTimeline } from '../../../analysis/timeline/types.ts';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { formToFlow } from '../../../renderer/src/store/walk.ts';
import { parseAddress } from '../../../parsers/net/address.ts';
import {
  addressOfNode,
  dipOf,
  explainingFindings,
  hopLabel,
  packetDiff,
  parseWalkQuery,
  resolveNodeId,
  topoIndex,
  walkEdges,
  walkHighlight,
  presetLines,
} from '../../../renderer/src/walk/model.ts';
import { formatMs, groupFindings, missingFiles, severityCounts } from '../../../renderer/src/findings/model.ts';
import { axisPositions, sandboxTitle, timelineOrder } from '../../../renderer/src/findings/timeline-rows.ts';
import { fakeApi, job, summary } from './fake-api.ts';


function hop(extra: Partial<WalkHop>): WalkHop {
  return { at: 'x', kind: 'vfp', action: 'allow', ...extra };
}

function trace(extra: Partial<WalkResult> = {}): WalkResult {
  return {
    flow: { srcIp: '10.244.0.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' },
    verdict: 'forwarded',
    reason: 'leaves the node',
    hops: [
      hop({ kind: 'source', nodes: ['endpoint:aaaa'] }),
      hop({ kind: 'compartment', nodes: ['compartment:2'] }),
      hop({ port: 'AAAA', rule: 'ACL', ruleType: 'allow' }),
      hop({ rule: 'LB_DSR_x', ruleType: 'lbnat', action: 'DNAT', nodes: ['loadbalancer:lb1'], alternatives: ['10.244.1.9:53'], inferred: true }),
      hop({ kind: 'host-route', nodes: ['next-hop:10.0.0.20'] }),
    ],
    deciding: 4,
    final: { srcIp: '10.244.0.5', dstIp: '10.244.1.8', proto: 'udp' },
    egress: { nextHop: '10.0.0.20' },
    path: ['endpoint:aaaa', 'compartment:2', 'loadbalancer:lb1', 'next-hop:10.0.0.20'],
    ...extra,
  };
}

function finding(extra: Partial<FindingView>): FindingView {
  return { id: 'x', key: 'x#1', severity: 'error', title: 't', explanation: 'e', fix: 'f', objects: [], evidence: [], refs: [], ...extra };
}

describe('walk model', () => {
  it('parses addresses and palette walk queries', () => {
    expect(parseAddress('10.96.0.10:53/UDP')).toEqual({ ip: '10.96.0.10', port: 53, proto: 'udp' });
    expect(parseAddress('10.96.0.10')).toEqual({ ip: '10.96.0.10' });
    expect(parseAddress('10.96.0.300')).toBeUndefined();
    expect(parseAddress('10.96.0.1:70000')).toBeUndefined();
    expect(parseWalkQuery('10.244.1.5 -> 10.96.0.10:53/udp')).toEqual({ srcIp: '10.244.1.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(parseWalkQuery('10.244.1.5 → 10.96.0.10:443')).toEqual({ srcIp: '10.244.1.5', dstIp: '10.96.0.10', dstPort: 443, proto: 'tcp' });
    expect(parseWalkQuery('10.244.1.5 to 8.8.8.8')).toEqual({ srcIp: '10.244.1.5', dstIp: '8.8.8.8', proto: 'icmp' });
    expect(parseWalkQuery('10.244.1.5 -> 10.96.0.10:53 udp')).toMatchObject({ proto: 'udp', dstPort: 53 });
    expect(parseWalkQuery('10.244.1.5')).toBeUndefined();
    expect(parseWalkQuery('LB_DSR -> x')).toBeUndefined();
  });

  it('takes the address of a clicked graph node', () => {
    expect(addressOfNode({ kind: 'loadbalancer', label: '10.96.0.10:53/UDP', details: [] })).toEqual({ ip: '10.96.0.10', port: 53, proto: 'udp' });
    expect(addressOfNode({ kind: 'endpoint', label: '10.244.0.5', details: [] })).toEqual({ ip: '10.244.0.5' });
    expect(addressOfNode({ kind: 'network', label: 'cbr0', details: ['l2bridge', 'gw 10.244.0.1'] })).toEqual({ ip: '10.244.0.1' });
    expect(addressOfNode({ kind: 'remote-subnet', label: '10.244.1.0/24', details: [] })).toBeUndefined();
  });

  it('resolves trace node ids onto drawn nodes: lb-groups, ports drawn as endpoints', () => {
    const idx = topoIndex([{ id: 'endpoint:aaaa' }, { id: 'lb-group:1', members: [{ type: 'loadbalancer', id: 'LB1' }] }, { id: 'compartment:2' }]);
    expect(resolveNodeId('loadbalancer:lb1', idx)).toBe('lb-group:1');
    expect(resolveNodeId('port:aaaa', idx)).toBe('endpoint:aaaa');
    expect(resolveNodeId('next-hop:1.2.3.4', idx)).toBeUndefined();
  });

  it('lights the hops with their numbers, the current hop, and the collapsed stand-ins', () => {
    const idx = topoIndex([{ id: 'endpoint:aaaa', parent: 'compartment:2' } as never, { id: 'compartment:2' }, { id: 'loadbalancer:lb1' }, { id: 'next-hop:10.0.0.20' }]);
    const hl = walkHighlight(trace(), 3, idx);
    expect(hl.nodes.get('endpoint:aaaa')).toEqual([1, 3]);
    expect(hl.nodes.get('loadbalancer:lb1')).toEqual([4]);
    expect([...hl.current]).toEqual(['loadbalancer:lb1']);
    expect(hl.order).toEqual(['endpoint:aaaa', 'compartment:2', 'endpoint:aaaa', 'loadbalancer:lb1', 'next-hop:10.0.0.20']);
    // The compartment collapsed: the endpoint's hops show on it.
    const collapsed = walkHighlight(trace(), 0, idx, (id) => (id === 'endpoint:aaaa' ? 'compartment:2' : id));
    expect(collapsed.nodes.get('compartment:2')).toEqual([1, 2, 3]);
    expect(hopLabel([1, 3, 4, 5, 8])).toBe('1, 3–5, 8');
  });

  it('joins consecutive lit nodes by edges, short chains, or jumps; never a node to itself', () => {
    const edges = [
      { id: 'e1', source: 'lb', target: 'dip' },
      { id: 'e2', source: 'dip', target: 'subnet' },
      { id: 'e3', source: 'subnet', target: 'nexthop' },
      { id: 'e4', source: 'net', target: 'ep' },
    ];
    const inside = (c: string, g: string) => c === 'ep' && g === 'comp';
    const j = walkEdges(['ep', 'comp', 'ep', 'lb', 'nexthop'], edges, inside);
    expect(j.jumps.map((x) => `${x.source}->${x.target}`)).toEqual(['ep->lb']);
    expect([...j.edges]).toEqual([
      ['e1', 'forward'],
      ['e2', 'forward'],
      ['e3', 'forward'],
    ]);
    expect([...j.via].sort()).toEqual(['dip', 'subnet']);
    expect(walkEdges(['ep', 'net'], edges).edges.get('e4')).toBe('reverse');
  });

  it('marks what a rewrite changed', () => {
    const before = { srcIp: '1.1.1.1', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const };
    const rows = packetDiff(before, { ...before, dstIp: '10.244.1.8' });
    expect(rows.filter((r) => r.changed).map((r) => r.key)).toEqual(['dstIp']);
    expect(packetDiff(undefined, before).every((r) => !r.changed)).toBe(true);
    expect(dipOf('10.244.1.9:53')).toBe('10.244.1.9');
  });

  it('finds the findings that explain a drop, best first', () => {
    const t = trace({ verdict: 'dropped', deciding: 2, hops: [hop({}), hop({}), hop({ kind: 'drop', port: 'AAAA', evidence: { file: 'vfpOutput.txt', line: 9 } })] });
    const blocked = finding({ key: 'b', refs: [{ type: 'endpoint', id: 'aaaa' }], evidence: [{ file: 'vfpOutput.txt', line: 9, text: '' }] });
    const sameFlow = finding({ key: 's', trace: { ...t.flow, dstPort: 53 } });
    const info = finding({ key: 'i', severity: 'info', refs: [{ type: 'port', id: 'aaaa' }] });
    expect(explainingFindings(t, [sameFlow, info, blocked]).map((f) => f.key)).toEqual(['b']);
    expect(explainingFindings(t, [sameFlow]).map((f) => f.key)).toEqual(['s']);
    expect(explainingFindings(trace(), [blocked])).toEqual([]);
  });

  it('turns the form into a flow or says what is wrong', () => {
    expect(formToFlow({ src: '10.0.0.1', dst: '10.96.0.10:53', proto: 'udp' })).toEqual({ srcIp: '10.0.0.1', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(formToFlow({ src: '10.0.0.1', dst: '10.96.0.10:53', proto: 'icmp' })).toEqual({ srcIp: '10.0.0.1', dstIp: '10.96.0.10', proto: 'icmp' });
    expect(formToFlow({ src: '', dst: '', proto: 'tcp' })).toBe('Choose a source');
    expect(formToFlow({ src: '', dst: '10.0.0.999', proto: 'tcp' })).toMatch(/^Choose a source; To: “10\.0\.0\.999” is /);
    expect(formToFlow({ src: 'pod', dst: '', proto: 'tcp' })).toBe('From: “pod” is not an IP address; Choose a destination');
    expect(formToFlow({ src: '10.0.0.1', dst: '10.96.0.10:70000', proto: 'tcp' })).toContain('port 70000 is out of range');
    // Both fields wrong: both said at once.
    expect(formToFlow({ src: '10.244.32.300', dst: 'hello', proto: 'tcp' })).toBe('From: “10.244.32.300” is not usable: 10.244.32.300 is not an IPv4 address; To: “hello” is not an IP address (an IP, IP:port, or [IPv6]:port)');
  });
});

describe('findings model', () => {
  const list = [
    finding({ key: 'a', area: 'lb' }),
    finding({ key: 'b', area: 'vfp', severity: 'warning' }),
    finding({ key: 'c', area: 'node', severity: 'info', undecided: true, evidence: [{ file: 'reservedports.txt', line: 0, text: 'file not in the bundle' }] }),
    finding({ key: 'd', area: 'lb', severity: 'info' }),
  ];
  it('counts by severity, groups by area with the worst first, filters', () => {
    expect(severityCounts(list)).toEqual({ error: 1, warning: 1, info: 2, undecided: 1 });
    const g = groupFindings(list, new Set(['error', 'warning', 'info']));
    expect(g.map((x) => x.title)).toEqual(['Load balancers', 'VFP', 'Node']);
    expect(g[0].findings.map((f) => f.key)).toEqual(['a', 'd']);
    expect(groupFindings(list, new Set(['warning'])).map((x) => x.area)).toEqual(['vfp']);
    expect(missingFiles(list[2])).toEqual(['reservedports.txt']);
  });

  it('formats timeline times and places steps on the axis', () => {
    expect(formatMs(2494.967)).toBe('2.495 s');
    expect(formatMs(73.6)).toBe('74 ms');
    expect(formatMs(undefined)).toBe('–');
    const t: SandboxTimeline = {
      sandboxId: 'ab'.repeat(32),
      outcome: 'succeeded',
      steps: [
        { at: 0, label: 'a', component: 'x', file: 'f', line: 1, text: '' },
        { at: 50, label: 'b', component: 'x', file: 'f', line: 2, text: '' },
        { label: 'c', component: 'x', file: 'f', line: 3, text: '' },
        { at: 200, label: 'd', component: 'x', file: 'f', line: 4, text: '' },
      ],
      add: 200,
    };
    expect(axisPositions(t)).toEqual([0, 0.25, undefined, 1]);
    expect(sandboxTitle(t)).toBe('sandbox abababababab…');
    expect(sandboxTitle({ ...t, pod: { namespace: 'default', name: 'db' } })).toBe('default/db');
    // Same duration: the failed one first.
    expect(timelineOrder([t, { ...t, sandboxId: 'f', outcome: 'failed' }]).map((x) => x.outcome)).toEqual(['failed', 'succeeded']);
  });
});

describe('walk and findings slices', () => {
  async function opened(over: Parameters<typeof fakeApi>[0] = {}) {
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b1') })), ...over });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/b' });
    await new Promise((r) => setTimeout(r, 0));
    return { api, store };
  }

  it('loads findings, timelines and presets with the bundle', async () => {
    const f = [finding({ key: 'a' })];
    const presets = [{ key: 'pod-to-service' as const, title: 'pod → service (a → b)', why: 'source a: a healthy pod', flow: { srcIp: '10.0.0.1', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const } }];
    const { store } = await opened({ getFindings: vi.fn(async () => f), walkPresets: vi.fn(async () => presets), getTimelines: vi.fn(async () => []) });
    expect(store.getState().findings).toEqual(f);
    expect(store.getState().presets).toEqual(presets);
    expect(store.getState().timelines).toEqual([]);
  });

  it('runs a walk, steps within the hops, re-runs with a DIP on the same hop, and leaves', async () => {
    const t = trace();
    const traceFn = vi.fn(async () => t);
    const { store, api } = await opened({ walk: traceFn });
    await store.getState().runWalk({ srcIp: '10.244.0.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' });
    expect(store.getState().walk).toBe(t);
    expect(store.getState().walkForm).toEqual({ src: '10.244.0.5', dst: '10.96.0.10:53', proto: 'udp' });
    store.getState().stepHop(-1);
    expect(store.getState().hop).toBe(0);
    store.getState().setHop(3);
    store.getState().stepHop(5);
    expect(store.getState().hop).toBe(4);
    store.getState().setHop(3);
    await store.getState().rerunWithDip('10.244.1.9');
    expect(api.walk).toHaveBeenLastCalledWith({ bundleId: 'b1', srcIp: '10.244.0.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp', dip: '10.244.1.9' });
    expect(store.getState().hop).toBe(3);
    store.getState().clearWalk();
    expect(store.getState().walk).toBeUndefined();
  });

  it('drops the answer of an older walk', async () => {
    let release!: (t: WalkResult) => void;
    const slow = new Promise<WalkResult>((r) => (release = r));
    const fast = trace({ reason: 'second' });
    const traceFn = vi.fn().mockReturnValueOnce(slow).mockResolvedValueOnce(fast);
    const { store } = await opened({ walk: traceFn });
    const first = store.getState().runWalk({ srcIp: '1.1.1.1', dstIp: '2.2.2.2', proto: 'tcp' });
    await store.getState().runWalk({ srcIp: '1.1.1.1', dstIp: '3.3.3.3', proto: 'tcp' });
    release(trace({ reason: 'first' }));
    await first;
    expect(store.getState().walk?.reason).toBe('second');
  });

  it('says why the form cannot be walked, and reports a failed walk', async () => {
    const { store } = await opened({ walk: vi.fn(async () => Promise.reject(new Error('bad arguments'))) });
    expect(await store.getState().walkFromForm()).toBe('Choose a source');
    store.getState().setWalkForm({ src: '10.0.0.1', dst: '10.0.0.2' });
    await store.getState().walkFromForm();
    expect(store.getState().walkError).toBe('bad arguments');
  });

  it('a form that cannot be walked takes the last walk away (it was of other inputs)', async () => {
    const { store } = await opened({ walk: vi.fn(async () => trace({ reason: 'first' })) });
    store.getState().setWalkForm({ src: '10.0.0.1', dst: '10.0.0.2' });
    await store.getState().walkFromForm();
    expect(store.getState().walk?.reason).toBe('first');
    store.getState().setWalkForm({ src: '10.0.0.300', dst: 'hello' });
    expect(await store.getState().walkFromForm()).toMatch(/^From: .*; To: /);
    expect(store.getState().walk).toBeUndefined();
  });

  it('fills source then destination from picked graph nodes', async () => {
    const { store } = await opened();
    store.getState().setPicking('src');
    store.getState().pickAddress({ ip: '10.244.0.5' });
    expect(store.getState().picking).toBe('dst');
    store.getState().pickAddress({ ip: '10.96.0.10', port: 53, proto: 'udp' });
    expect(store.getState().walkForm).toEqual({ src: '10.244.0.5', dst: '10.96.0.10:53', proto: 'udp' });
    expect(store.getState().picking).toBeUndefined();
    store.getState().walkFrom('10.244.0.7');
    expect(store.getState()).toMatchObject({ panel: 'walk', view: 'topology', picking: 'dst', walkForm: { src: '10.244.0.7', dst: '' } });
  });

  it('walks a finding’s packet to its deciding hop, and shows a finding from anywhere', async () => {
    const f = finding({ key: 'blk#1', severity: 'warning', trace: { srcIp: '10.244.0.5', dstIp: '1.1.1.1', dstPort: 443, proto: 'tcp' } });
    const { store, api } = await opened({ getFindings: vi.fn(async () => [f]), walk: vi.fn(async () => trace({ deciding: 2 })) });
    await store.getState().walkFinding('blk#1');
    expect(api.walk).toHaveBeenCalledWith({ bundleId: 'b1', srcIp: '10.244.0.5', dstIp: '1.1.1.1', dstPort: 443, proto: 'tcp' });
    expect(store.getState()).toMatchObject({ panel: 'walk', hop: 2, activeFinding: 'blk#1' });
    store.getState().toggleSeverity('warning');
    store.getState().showFinding('blk#1');
    expect(store.getState()).toMatchObject({ panel: 'findings', activeFinding: 'blk#1' });
    expect(store.getState().severityShown).toContain('warning');
  });

  it('forgets the walk and the findings when another bundle opens', async () => {
    const { store } = await opened({ walk: vi.fn(async () => trace()), getFindings: vi.fn(async () => [finding({})]) });
    await store.getState().runWalk({ srcIp: '1.1.1.1', dstIp: '2.2.2.2', proto: 'tcp' });
    store.getState().setActiveFinding('x#1');
    await store.getState().closeBundle();
    expect(store.getState()).toMatchObject({ walk: undefined, findings: undefined, activeFinding: undefined, walkForm: { src: '', dst: '' } });
  });
});

describe('preset cards', () => {
  it('show the kind, then where the packet goes (the shared source only in the title)', () => {
    expect(presetLines('pod → service (default/win-webserver-7f64f4ff9f-2dg2g → kube-system/kube-dns 10.96.0.10:53/UDP)')).toEqual({ name: 'pod → service', flow: '→ kube-system/kube-dns 10.96.0.10:53/UDP' });
    expect(presetLines('pod → outside (10.244.32.3 → 93.184.216.34:443)')).toEqual({ name: 'pod → outside', flow: '→ 93.184.216.34:443' });
    expect(presetLines('a title without a flow')).toEqual({ name: 'a title without a flow' });
  });
});
