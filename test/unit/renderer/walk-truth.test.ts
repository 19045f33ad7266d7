// What the walk panel says beside a verdict (renderer/src/walk/verdict.ts): the verdict with the worst
// finding on its path, its colour, what it depends on, the caveats' sources, the findings per hop,
// the conditions of the matched rule; IPv6 in the walk form; and the walk slice's reply, shown as a
// walk of its own. The walks here are made by hand in the shapes analysis/walk/types.ts gives (the
// findings on the path and matchedBecause as analysis/walk/findings-on-path.ts adds them).
import { describe, expect, it, vi } from 'vitest';
import type { WalkHop, WalkResult } from '../../../analysis/walk/types.ts';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { flowToForm, formToFlow } from '../../../renderer/src/store/walk.ts';
import { addressOfNode, endpointText, flowText, parseWalkQuery } from '../../../renderer/src/walk/model.ts';
import {
  caveatSource,
  conditionText,
  hopFindings,
  hopMarks,
  inferredHops,
  unmodelledHops,
  verdictFindings,
  verdictParts,
  verdictText,
  verdictTone,
  type WalkView,
} from '../../../renderer/src/walk/verdict.ts';
import { fakeApi, job, summary } from './fake-api.ts';

const hop = (extra: Partial<WalkHop>): WalkHop => ({ at: 'x', kind: 'vfp', action: 'allow', ...extra });

function walk(extra: Partial<WalkView> = {}): WalkView {
  return {
    flow: { srcIp: '10.244.3.5', dstIp: '8.8.8.8', dstPort: 53, proto: 'udp' },
    verdict: 'forwarded',
    reason: 'leaves the node through the uplink',
    hops: [
      hop({ kind: 'source', at: 'pod 10.244.3.5' }),
      hop({ rule: 'EXCEPTIONS_OUTBOUNDNAT_20EB0_10.244.0.0', action: 'allow', matchedBecause: [{ field: 'destination IP', value: '8.8.8.8', condition: '0.0.0.0-255.255.255.255', result: 'match' }] } as Partial<WalkHop>),
      hop({ kind: 'uplink', at: 'uplink', action: 'route' }),
    ],
    deciding: 2,
    final: { srcIp: '10.244.3.5', dstIp: '8.8.8.8', dstPort: 53, proto: 'udp' },
    egress: { nextHop: '192.168.30.1' },
    path: [],
    ...extra,
  };
}

describe('the verdict in words', () => {
  it('says the verdict alone when nothing on the path qualifies it', () => {
    expect(verdictText(walk())).toBe('Forwarded');
    expect(verdictTone(walk())).toBe('info');
    expect(verdictTone(walk({ verdict: 'delivered' }))).toBe('ok');
    expect(verdictTone(walk({ verdict: 'dropped' }))).toBe('error');
  });

  it('carries the worst finding: "…, but" for a packet that got through, "…, and" for one that did not', () => {
    const caveat = { severity: 'error' as const, text: 'the OutBoundNAT exception list exempts every destination (10.244.0.0/0): the packet leaves with the pod address' };
    expect(verdictText(walk({ verdictCaveat: caveat }))).toBe(`Forwarded, but ${caveat.text}`);
    expect(verdictParts(walk({ verdict: 'delivered', verdictCaveat: caveat }))).toEqual({ word: 'Delivered', rest: `, but ${caveat.text}` });
    expect(verdictText(walk({ verdict: 'dropped', verdictCaveat: caveat }))).toBe(`Dropped, and ${caveat.text}`);
    expect(verdictText(walk({ verdict: 'unknown', verdictCaveat: caveat }))).toBe(`Unknown, and ${caveat.text}`);
  });

  it('never shows a delivered packet in plain green while a finding or an unmodelled rule qualifies it', () => {
    expect(verdictTone(walk({ verdict: 'delivered', verdictCaveat: { severity: 'error', text: 'x' } }))).toBe('error');
    expect(verdictTone(walk({ verdict: 'delivered', verdictCaveat: { severity: 'warning', text: 'x' } }))).toBe('warning');
    expect(verdictTone(walk({ verdict: 'delivered', dependsOnUnmodelled: true }))).toBe('warning');
    expect(verdictTone(walk({ caveats: [{ kind: 'icmp', text: 'the answer does not come back' }] }))).toBe('warning');
    // A drop stays red whatever qualifies it.
    expect(verdictTone(walk({ verdict: 'dropped', verdictCaveat: { severity: 'warning', text: 'x' } }))).toBe('error');
    expect(verdictTone(walk({ verdict: 'dropped', dependsOnUnmodelled: true }))).toBe('error');
  });

  it('names the hops the verdict depends on and the inferred ones', () => {
    const t = walk({
      dependsOnUnmodelled: true,
      inferred: true,
      hops: [hop({ at: 'pod' }), hop({ rule: 'R1', ruleType: 'redirect', unmodelled: 'redirect rules are not modelled' }), hop({ at: 'lb', inferred: true }), hop({ at: 'route', inferred: true })],
    });
    expect(unmodelledHops(t)).toEqual([{ hop: 1, label: 'R1', reason: 'redirect rules are not modelled' }]);
    expect(inferredHops(t)).toEqual([
      { hop: 2, label: 'lb' },
      { hop: 3, label: 'route' },
    ]);
    expect(unmodelledHops(walk())).toEqual([]);
  });

  it('links a caveat source that is a URL and keeps the quote beside it', () => {
    expect(caveatSource('https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations ("Local NodePort access from the node itself")')).toEqual({
      url: 'https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations',
      text: 'kubernetes.io ("Local NodePort access from the node itself")',
    });
    expect(caveatSource('kubernetes/kubernetes pkg/proxy/winkernel')).toEqual({ text: 'kubernetes/kubernetes pkg/proxy/winkernel' });
    expect(caveatSource('http://example.com/x')).toEqual({ text: 'http://example.com/x' });
    expect(caveatSource(undefined)).toBeUndefined();
  });
});

describe('findings and conditions on the hops', () => {
  const findings = [
    { key: 'outboundnat-exception-typo#1', id: 'outboundnat-exception-typo', severity: 'error' as const, title: 'ExceptionList entry 10.244.0.0/0', hop: 1, why: 'this rule exempted the packet from SNAT' },
    { key: 'walk:no-vnic#1', id: 'no-vnic', severity: 'warning' as const, title: 'the destination pod has no vNIC', why: 'nothing receives the packet' },
    { key: 'x#2', id: 'x', severity: 'info' as const, title: 'info on hop 1', hop: 1, why: 'w' },
    { key: 'y#1', id: 'y', severity: 'warning' as const, title: 'on a hop the walk does not have', hop: 9, why: 'w' },
  ];

  it('puts each finding on its hop (worst first) and lists the others under the verdict', () => {
    const t = walk({ findings });
    expect(hopFindings(t, 1).map((f) => f.key)).toEqual(['outboundnat-exception-typo#1', 'x#2']);
    expect(hopFindings(t, 0)).toEqual([]);
    expect(verdictFindings(t).map((f) => f.key)).toEqual(['walk:no-vnic#1', 'y#1']);
    expect(verdictFindings(walk())).toEqual([]);
  });

  it('writes each condition of the matched rule against the packet', () => {
    expect(conditionText({ field: 'destination IP', value: '8.8.8.8', condition: '0.0.0.0-255.255.255.255', result: 'match' })).toBe('destination IP 8.8.8.8 ∈ 0.0.0.0-255.255.255.255');
    expect(conditionText({ field: 'protocol', value: '17', condition: '6,17', result: 'match' })).toBe('protocol 17 ∈ 6,17');
    // A condition hnsight cannot evaluate is not claimed to hold.
    expect(conditionText({ field: 'Tenant', value: '—', condition: '42', result: 'unknown' })).toBe('Tenant — vs 42');
  });

  it('marks a hop by what the engine says about it', () => {
    expect(hopMarks(hop({ ambiguous: 'A and B (priority 100)' })).map((m) => m.key)).toEqual(['ambiguous']);
    expect(hopMarks(hop({ ambiguous: 'A and B (priority 100)' }))[0].title).toContain('A and B (priority 100)');
    expect(hopMarks(hop({ unmodelled: 'u', inferred: true, superseded: true, flow: true })).map((m) => m.label)).toEqual(['not modelled', 'inferred', 'overridden', 'flow state']);
    expect(hopMarks(hop({}))).toEqual([]);
  });
});

describe('IPv6 in the walk form', () => {
  it('takes fd00::a and [fd00::a]:80, and writes a port after an IPv6 address in brackets', () => {
    expect(formToFlow({ src: 'fd00::5', dst: 'fd00::a', proto: 'icmp' })).toEqual({ srcIp: 'fd00::5', dstIp: 'fd00::a', proto: 'icmp' });
    expect(formToFlow({ src: 'fd00::5', dst: '[fd00::a]:80', proto: 'tcp' })).toEqual({ srcIp: 'fd00::5', dstIp: 'fd00::a', dstPort: 80, proto: 'tcp' });
    expect(formToFlow({ src: '10.0.0.1', dst: '[fd00::a]:80', proto: 'tcp' })).toBe('Source and destination must both be IPv4 or both IPv6');
    expect(formToFlow({ src: 'fd00::5', dst: 'fd00::zz', proto: 'tcp' })).toMatch(/^To: “fd00::zz” is not/);
    const f = { srcIp: 'fd00::5', dstIp: 'fd00::a', dstPort: 80, proto: 'tcp' as const };
    expect(flowToForm(f)).toEqual({ src: 'fd00::5', dst: '[fd00::a]:80', proto: 'tcp' });
    // The form's text goes back to the same flow (an unbracketed fd00::a:80 would be another address).
    expect(formToFlow(flowToForm(f))).toEqual(f);
    expect(endpointText('10.96.0.10', 53)).toBe('10.96.0.10:53');
    expect(flowText(f)).toBe('fd00::5 → [fd00::a]:80/TCP');
    expect(parseWalkQuery('fd00::5 -> [fd00::a]:80/tcp')).toEqual(f);
  });

  it('takes an IPv6 address from a clicked graph node', () => {
    expect(addressOfNode({ kind: 'endpoint', label: 'fd00::5', details: [] })).toEqual({ ip: 'fd00::5' });
    expect(addressOfNode({ kind: 'loadbalancer', label: '[fd00:96::10]:53/UDP', details: [] })).toEqual({ ip: 'fd00:96::10', port: 53, proto: 'udp' });
    expect(addressOfNode({ kind: 'endpoint', label: 'web-1', details: ['MAC 00-15-5D-01-02-03', 'fd00:10:244::5'] })).toEqual({ ip: 'fd00:10:244::5' });
  });
});

describe('walking the reply', () => {
  const flow = { srcIp: '10.244.0.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const };
  const reply: WalkResult = { ...walk(), kind: 'reply', verdict: 'delivered', reason: 'back at the pod', flow: { srcIp: '10.244.1.8', dstIp: '10.244.0.5', srcPort: 53, dstPort: 49152, proto: 'udp' }, hops: [hop({ at: 'backend' }), hop({ at: 'vfp', flow: true }), hop({ at: 'pod' })], deciding: 2 };

  async function opened(walkFn: ReturnType<typeof vi.fn>) {
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b1') })), walk: walkFn });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/b' });
    await new Promise((r) => setTimeout(r, 0));
    return { api, store };
  }

  it('asks for the walk again with reply: true, shows the reply as the walk, and goes back to the request’s hop', async () => {
    const request = walk({ flow });
    const withReply = { ...request, reply };
    const walkFn = vi.fn().mockResolvedValueOnce(request).mockResolvedValueOnce(withReply);
    const { store, api } = await opened(walkFn);
    await store.getState().runWalk(flow);
    store.getState().setHop(2);
    await store.getState().walkTheReply();
    expect(api.walk).toHaveBeenLastCalledWith({ bundleId: 'b1', ...flow, reply: true });
    expect(store.getState()).toMatchObject({ walk: reply, walkSide: 'reply', hop: 0 });
    expect(store.getState().walkRequest).toBe(withReply);
    // Stepping goes through the reply's hops.
    store.getState().stepHop(5);
    expect(store.getState().hop).toBe(2);
    store.getState().showRequest();
    expect(store.getState()).toMatchObject({ walk: withReply, walkSide: 'request', hop: 2 });
    // The reply is kept: showing it again asks nothing.
    await store.getState().walkTheReply();
    expect(api.walk).toHaveBeenCalledTimes(2);
    expect(store.getState().walkSide).toBe('reply');
    // A new walk starts on its request.
    walkFn.mockResolvedValueOnce(walk({ flow: { ...flow, dstIp: '10.96.0.11' } }));
    await store.getState().runWalk({ ...flow, dstIp: '10.96.0.11' });
    expect(store.getState().walkSide).toBe('request');
    expect(store.getState().walkRequest?.reply).toBeUndefined();
  });

  it('says so when the packet gets no reply, and drops a reply that arrives after another walk started', async () => {
    const dropped = walk({ flow, verdict: 'dropped' });
    let release!: (t: WalkResult) => void;
    const slow = new Promise<WalkResult>((r) => (release = r));
    const walkFn = vi.fn().mockResolvedValueOnce(dropped).mockResolvedValueOnce(dropped).mockResolvedValueOnce(walk({ flow })).mockReturnValueOnce(slow).mockResolvedValueOnce(walk({ flow, reason: 'newer' }));
    const { store } = await opened(walkFn);
    await store.getState().runWalk(flow);
    await store.getState().walkTheReply();
    expect(store.getState().walkSide).toBe('request');
    expect(store.getState().walkError).toBe('No reply to walk: the packet was dropped.');
    await store.getState().runWalk(flow);
    const pending = store.getState().walkTheReply();
    expect(store.getState().replyLoading).toBe(true);
    await store.getState().runWalk(flow);
    release({ ...walk({ flow }), reply });
    await pending;
    expect(store.getState()).toMatchObject({ walkSide: 'request', replyLoading: false });
    expect(store.getState().walk?.reason).toBe('newer');
  });
});
