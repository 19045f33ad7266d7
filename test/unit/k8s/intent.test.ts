// Kubernetes intent against what the node programmed (analysis/k8s/intent.ts, check k8s.ts), on
// generated platform nodes whose kubectl snapshot matches their HNS state unless a fault says otherwise.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { podIntent, serviceIntents, k8sNames, skewNote, withPod } from '../../../analysis/k8s/index.ts';
import { nodeAddress } from '../../../analysis/platform/index.ts';

const problems = (fs: ReturnType<typeof runChecks>) => fs.filter((f) => f.severity !== 'info');

describe('Service backends against load balancers', () => {
  it('every Service port of a healthy node matches its load balancer, ClusterIP and NodePort, both protocols of DNS', () => {
    const { model, node } = buildPlatform('azure-cni-overlay', { services: 14, seed: 11 });
    const its = serviceIntents(model);
    expect(its.length).toBeGreaterThan(10);
    for (const it of its) {
      expect(it.lb, `${it.service.name} ${it.vip}:${it.port}/${it.protocol}`).toBeDefined();
      expect([it.stale, it.notBackend, it.missing]).toEqual([[], [], []]);
    }
    expect(its.filter((i) => i.service.name === 'kube-dns').map((i) => i.protocol).sort()).toEqual(['TCP', 'UDP']);
    // The generator's NodePort services have a load balancer on the node port, named after the Service.
    const np = its.filter((i) => i.nodePort);
    expect(np.length).toBe(node.services.flatMap((s) => s.ports.filter((p) => p.nodePort)).length);
    for (const i of np) expect(k8sNames(model).lbLabel(i.lb!)).toBe(`${i.service.namespace}/${i.service.name}`);
  });

  it('without EndpointSlices the backends are the Running pods the selector picks', () => {
    const { model, node } = buildPlatform('calico-vxlan', { faults: ['missing-backend'] }, { slices: false });
    expect(model.k8s!.endpointSlices).toEqual([]);
    const its = serviceIntents(model).filter((i) => i.source === 'selector');
    expect(its.length).toBeGreaterThan(0);
    const fs = problems(runChecks(model));
    expect(fs.map((f) => `${f.severity} ${f.id}`)).toEqual(['warning k8s-backends-drift']);
    expect(fs[0].explanation).toMatch(/The Running pods its selector picks/);
    expect(fs[0].objects).toContain(node.expected.faults[0].objects[1]);
  });

  it('a DIP that no Running pod holds is stale: an error naming the Service and the IP', () => {
    const { model, node } = buildPlatform('eks-vpc-bridge', { faults: ['stale-backend'] });
    const [svc, ip] = node.expected.faults[0].objects;
    const f = problems(runChecks(model)).find((x) => x.id === 'k8s-backends-drift')!;
    expect(f.severity).toBe('error');
    expect(f.title).toContain(svc);
    expect(f.title).toContain(ip);
    expect(f.evidence.map((e) => e.file)).toEqual(['kubectl-get-all.json', 'policy.txt']);
    expect(f.explanation).toContain('black-holed');
  });

  it('a stale DIP only HNS still lists (VFP no longer sends there) is a warning that claims no black hole', () => {
    const probe = buildPlatform('eks-vpc-bridge', { faults: ['stale-backend'] });
    const ip = probe.node.expected.faults[0].objects[1];
    const esc = ip.replace(/\./g, '\\.');
    const { model } = buildPlatform('eks-vpc-bridge', { faults: ['stale-backend'] }, {}, (p, t) => (p === 'vfpOutput.txt' ? t.replace(new RegExp(`\\r?\\n\\s*\\{ ${esc} : \\d+ \\}`, 'g'), '') : t));
    const f = problems(runChecks(model)).find((x) => x.id === 'k8s-backends-drift')!;
    expect(f.severity).toBe('warning');
    expect(f.explanation).toContain(`HNS still lists ${ip}`);
    expect(f.explanation).not.toContain('black-holed.');
    expect(f.explanation).toContain('nothing is black-holed now');
  });
});

describe('NodePort load balancers against the VFP rule on the host vNIC port', () => {
  // Seed 1 puts the stale backend behind a NodePort Service (default/billing-2, node port 30217).
  const spec = { faults: ['stale-backend' as const], seed: 1, services: 10 };
  const nodePortFinding = (fs: ReturnType<typeof runChecks>) => fs.find((x) => x.id === 'k8s-backends-drift' && /node port/.test(x.title))!;
  it('the NodePort intent reads the LB_HOST rule: the stale DIP is confirmed in VFP', () => {
    const { model, node } = buildPlatform('flannel-host-gw', spec);
    const [svc, ip] = node.expected.faults[0].objects;
    const np = serviceIntents(model, (vip, port, proto, nodePort) => (nodePort ? { ips: [`asked ${port}/${proto} ${nodePort.lbVips.join(',')}`], port: 'x' } : undefined)).find((i) => i.nodePort && i.stale.length);
    expect(np?.vfp?.ips[0]).toBe(`asked ${np!.port}/6 ${np!.lb!.vips.join(',')}`);
    const fs = problems(runChecks(model));
    expect(fs.map((f) => `${f.severity} ${f.id} ${f.title}`)).toEqual([
      `error k8s-backends-drift ${svc} 10.97.226.34:443 sends traffic to ${ip}, which no Running pod holds`,
      `error k8s-backends-drift ${svc} node port 30217 sends traffic to ${ip}, which no Running pod holds`,
    ]);
    const f = nodePortFinding(fs);
    expect(f.title).toBe(`${svc} node port 30217 sends traffic to ${ip}, which no Running pod holds`);
    expect(f.explanation).toMatch(new RegExp(`; the VFP rule on the host vNIC port [0-9A-F-]+ to [0-9., ]*${ip.replace(/\./g, '\\.')}\\.`));
    expect(f.explanation).not.toMatch(/no VFP/);
  });
  it('when the host rule no longer holds the stale DIP, the NodePort finding is a warning that claims no black hole', () => {
    const probe = buildPlatform('flannel-host-gw', spec);
    const ip = probe.node.expected.faults[0].objects[1];
    const esc = ip.replace(/\./g, '\\.');
    const { model } = buildPlatform('flannel-host-gw', spec, {}, (p, t) => (p === 'vfpOutput.txt' ? t.replace(new RegExp(`\\r?\\n\\s*\\{ ${esc} : \\d+ \\}`, 'g'), '') : t));
    const fs = problems(runChecks(model));
    // (HNS and VFP now disagree on the DIPs: drift-lb-dips says so for the ClusterIP rule on the pod ports)
    expect(fs.map((f) => `${f.severity} ${f.id}`)).toEqual(['warning drift-lb-dips', 'warning k8s-backends-drift', 'warning k8s-backends-drift']);
    const f = nodePortFinding(fs);
    expect(f.explanation).toContain(`HNS still lists ${ip}, which no Running pod holds, but the VFP rule on the host vNIC port`);
    expect(f.explanation).toContain('nothing is black-holed now');
  });
});

describe('the snapshot and the bundle may be of different moments', () => {
  it('when it is not known when the snapshot was taken, the drift says the comparison assumes the same moment', () => {
    const { model } = buildPlatform('eks-vpc-bridge', { faults: ['stale-backend'] });
    const f = problems(runChecks(model)).find((x) => x.id === 'k8s-backends-drift')!;
    expect(f.severity).toBe('error');
    expect(f.explanation).toMatch(/This compares the kubectl snapshot with the node as if both were taken at the same moment \(hnsight cannot tell when the snapshot was taken\)/);
  });
  it('both moments known: more than five minutes apart hedges to a warning that says so; within them nothing is added', () => {
    const t = Date.UTC(2026, 0, 5, 10, 0, 0);
    expect(skewNote({ kubectl: t, bundle: t + 42 * 60_000 })).toEqual({ hedge: true, text: "The kubectl snapshot (2026-01-05 10:00:00 UTC) and the node's bundle (2026-01-05 10:42:00 UTC) were taken 42 minutes apart: the Service's backends may have changed in between, so this is only a warning; compare a snapshot and a bundle taken together." });
    expect(skewNote({ kubectl: t, bundle: t + 2 * 60_000 })).toEqual({ hedge: false, text: '' });
    expect(skewNote({ kubectl: t }).hedge).toBe(false);
  });
});

describe('Running pods of this node against HNS endpoints', () => {
  it('this node is found by address even when Windows calls itself otherwise (EKS)', () => {
    const { model, node } = buildPlatform('eks-vpc-bridge', { hostName: 'EC2AMAZ-7Q1B2C3' });
    const pi = podIntent(model);
    expect(pi.node?.name).toBe(node.nodeName);
    expect(pi.nodeBy).toBe('address');
    expect(pi.pods.length).toBe(6);
    expect(pi.withoutEndpoint).toEqual([]);
  });

  it('a Running pod of this node with no endpoint, and an endpoint no pod holds', () => {
    // Move one pod's IP in the snapshot: its endpoint is now nobody's, and the pod has no endpoint.
    let moved = '';
    const { model } = buildPlatform('flannel-host-gw', {}, {}, (path, text) => {
      if (path !== 'kubectl-get-all.json') return text;
      const doc = JSON.parse(text);
      const pod = doc.items.find((i: { kind: string; spec: { nodeName: string } }) => i.kind === 'Pod' && i.spec.nodeName === 'win-node-0');
      moved = pod.status.podIP;
      pod.status.podIP = '10.244.38.250';
      pod.status.podIPs = [{ ip: '10.244.38.250' }];
      return JSON.stringify(doc);
    });
    const fs = problems(runChecks(model)).filter((f) => f.area === 'k8s');
    expect(fs.map((f) => f.id).sort()).toEqual(['k8s-endpoint-no-pod', 'k8s-pod-no-endpoint']);
    expect(fs.find((f) => f.id === 'k8s-endpoint-no-pod')!.explanation).toContain(moved);
  });
});

describe('names for what is neither a pod nor a Service VIP', () => {
  it('the API server behind default/kubernetes: its remote endpoint ("Ethernet") is named from the EndpointSlice', () => {
    const { model } = buildPlatform('flannel-host-gw');
    const api = model.k8s!.endpointSlices.find((s) => s.namespace === 'default' && s.serviceName === 'kubernetes')!.endpoints[0].addresses[0];
    const ep = model.endpoints!.find((e) => e.isRemote && e.ip === api)!;
    expect(ep.name).toBe('Ethernet');
    expect(withPod(model, api)).toBe(`${api} (API server, default/kubernetes)`);
    expect(k8sNames(model).refOfIp(api)).toEqual({ kind: 'Endpoint', namespace: 'default', name: 'kubernetes', type: 'API server' });
  });
  it("Antrea's node address is on br-int, where Antrea moves the host adapter's IP", () => {
    const { model } = buildPlatform('antrea');
    const brInt = model.ip!.compartments[0].adapters.find((a) => a.name === 'br-int')!.ipv4[0].address;
    expect(nodeAddress(model)).toBe(brInt);
  });
});
