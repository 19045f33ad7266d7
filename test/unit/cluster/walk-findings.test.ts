// A walk across nodes meets the findings of both nodes and the findings across nodes, so that its
// verdict never says "delivered" or "forwarded" plainly while a finding on its path says otherwise
// (the single-node rule of analysis/walk/findings-on-path.ts, carried across the hand-over).
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupClusters, loadGeneratedCluster } from '../../helpers/cluster.ts';
import { formatStitched, runClusterChecks, walkAcross, withAcrossFindings } from '../../../analysis/cluster/index.ts';
import { findingViews, modelFindings } from '../../../analysis/view-models/findings.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

afterAll(cleanupClusters);

describe('a walk across nodes meets the findings', () => {
  it('stale-pa: the odd node\'s stale provider address is on the hand-over, and the verdict carries it', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 31, faults: ['stale-pa'] });
    const [n0, n1, odd] = c.plan.nodes;
    const across = runClusterChecks(c.cluster);
    const stale = across.findIndex((f) => f.id === 'cluster-stale-provider-address');
    expect(stale, 'the cluster check finds the stale address').toBeGreaterThanOrEqual(0);
    const w = withAcrossFindings(c.cluster, walkAcross(c.cluster, { srcIp: odd.podIps[0], dstIp: n0.podIps[0], dstPort: 80, proto: 'tcp' }), across, modelFindings);
    expect(w.verdict).toBe('dropped');
    const f = w.findings!.find((x) => x.key === `cluster:${stale}`);
    expect(f, JSON.stringify(w.findings)).toBeDefined();
    expect(f).toMatchObject({ node: odd.host, acrossNodes: true, severity: 'error' });
    expect(w.hops[f!.hop!].kind).toBe('handover');
    expect(w.verdictCaveat?.severity).toBe('error');
    expect(w.verdictCaveat?.text).toContain(`on ${odd.host}, at the hand-over`);
    const text = formatStitched(w);
    expect(text).toMatch(/verdict: DROPPED[^\n]*, and .*tunnels/);
    expect(text).toContain('[across nodes]');
    // A packet addressed to the pod itself uses no remote endpoint: the remote endpoint finding is not on it.
    expect(across.some((x) => x.id === 'cluster-remote-endpoint-pa')).toBe(true);
    expect(w.findings!.filter((x) => x.id === 'cluster-remote-endpoint-pa')).toEqual([]);
    // One a load balancer sends to a backend of node 0 does: there the finding is on the hand-over.
    const svc = c.plan.expected.services.find((s) => s.name.startsWith('default/') && s.name !== 'default/kubernetes' && s.backends.some((b) => n0.podIps.includes(b)))!;
    const backend = svc.backends.find((b) => n0.podIps.includes(b))!;
    const lb = c.cluster.byId(odd.host)!.model!.loadBalancers!.find((l) => l.vips.includes(svc.vip))!;
    const viaLb = withAcrossFindings(c.cluster, walkAcross(c.cluster, { srcIp: odd.podIps[0], dstIp: svc.vip, dstPort: lb.ports[0].externalPort, proto: lb.ports[0].protocol === 17 ? 'udp' : 'tcp', dip: backend }), across, modelFindings);
    expect(viaLb.findings!.filter((x) => x.id === 'cluster-remote-endpoint-pa').map((x) => x.node)).toEqual([odd.host]);
    // A node with the right provider address meets no finding across nodes on the same path.
    const ok = withAcrossFindings(c.cluster, walkAcross(c.cluster, { srcIp: n1.podIps[0], dstIp: n0.podIps[0], dstPort: 80, proto: 'tcp' }), across, modelFindings);
    expect(ok.verdict).toBe('delivered');
    expect(ok.findings!.filter((x) => x.acrossNodes)).toEqual([]);
  });

  it('missing-lb: a pod on the node without the Service\'s load balancer calls the VIP — the verdict names the missing load balancer', async () => {
    const c = await loadGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 32, faults: ['missing-lb'] });
    const odd = c.plan.nodes[2];
    const vip = c.plan.expected.faults[0].objects[1];
    const svc = c.plan.expected.services.find((s) => s.vip === vip)!;
    // The port as the other nodes program it.
    const lb = c.cluster.byId(c.plan.nodes[0].host)!.model!.loadBalancers!.find((l) => l.vips.includes(vip))!;
    const port = lb.ports[0];
    const proto = port.protocol === 17 ? 'udp' : 'tcp';
    const across = runClusterChecks(c.cluster);
    const missing = across.findIndex((f) => f.id === 'cluster-lb-missing');
    expect(missing, svc.name).toBeGreaterThanOrEqual(0);
    const w = withAcrossFindings(c.cluster, walkAcross(c.cluster, { srcIp: odd.podIps[0], dstIp: vip, dstPort: port.externalPort, proto }), across, modelFindings);
    const f = w.findings!.find((x) => x.key === `cluster:${missing}`);
    expect(f, JSON.stringify(w.findings)).toMatchObject({ node: odd.host, acrossNodes: true });
    // Said the way round it is: the odd node has no load balancer, the others have.
    expect(f!.why).toContain(`which the other nodes load-balance and ${odd.host} does not`);
    expect(w.hops[f!.hop!].node).toBe(odd.host);
    expect(w.verdictCaveat?.severity).toBe('error');
    expect(w.verdictCaveat?.text).toContain(odd.host);
    // From a node that has it, the same call is load-balanced and meets no such finding.
    const n0 = c.plan.nodes[0];
    const fine = withAcrossFindings(c.cluster, walkAcross(c.cluster, { srcIp: n0.podIps[0], dstIp: vip, dstPort: port.externalPort, proto }), across, modelFindings);
    expect(fine.findings!.some((x) => x.key === `cluster:${missing}`)).toBe(false);
  });

  it('a finding of the destination node is on its half, numbered in the stitched walk, and qualifies a delivered verdict', async () => {
    const c = await loadGeneratedCluster({ nodes: 2, platform: 'calico-vxlan', seed: 33 });
    const [n0, n1] = c.plan.nodes;
    const m1 = c.cluster.byId(n1.host)!.model!;
    const dst = n1.podIps[1];
    const ep = m1.endpoints!.find((e) => e.ip === dst)!;
    // A finding about the destination endpoint, as a node check would write it (its object the endpoint id).
    const extra = findingViews(m1, [{ id: 'test-destination', severity: 'warning', title: `Endpoint ${ep.id} is suspicious`, explanation: 'x', fix: 'x', objects: [ep.id], evidence: [] }]).map((f) => ({ ...f, key: 'extra' }));
    const nodeFindings = (m: NodeModel) => (m === m1 ? [...modelFindings(m), ...extra] : modelFindings(m));
    const raw = walkAcross(c.cluster, { srcIp: n0.podIps[0], dstIp: dst, dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(raw.verdict).toBe('delivered');
    const w = withAcrossFindings(c.cluster, raw, runClusterChecks(c.cluster), nodeFindings);
    const f = w.findings!.find((x) => x.key === 'extra')!;
    expect(f).toMatchObject({ node: n1.host, severity: 'warning' });
    expect(w.hops[f.hop!].node).toBe(n1.host);
    expect(w.hops[f.hop!].leg).toBe(1);
    expect(w.verdict).toBe('delivered');
    expect(w.verdictCaveat).toMatchObject({ severity: 'warning' });
    expect(w.verdictCaveat!.text).toContain(`on ${n1.host}, hop`);
    // Node 1's own half carries it too (what the app lists under that node).
    expect(w.legs[1].walk.findings!.some((x) => x.key === 'extra')).toBe(true);
    expect(w.legs[0].walk.findings!.some((x) => x.key === 'extra')).toBe(false);
    expect(formatStitched(w)).toMatch(/verdict: DELIVERED[^\n]*, but endpoint/);
    // The reply crosses node 1 too and meets it there.
    expect(w.reply!.findings!.some((x) => x.key === 'extra' && x.node === n1.host)).toBe(true);
  });
});
