// The walks worth starting with (analysis/walk/presets.ts): from a healthy pod (its vNIC in a pod
// compartment, a VFP port with rules that is not blocked), named pods and Services first, each saying
// what it picked and why. The report's default walks are these.
import { describe, expect, it } from 'vitest';
import { build, localPods } from './helpers.ts';
import { buildWith, kubectlFor } from '../checks/helpers.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { buildReport } from '../../../analysis/report/index.ts';

const sources = (ps: ReturnType<typeof walkPresets>) => [...new Set(ps.filter((p) => p.key.startsWith('pod-')).map((p) => p.flow.srcIp))];

describe('the preset source is a healthy pod', () => {
  it('a pod whose VFP port is blocked, first in the file, is passed over, and the presets say so', () => {
    const { model, node } = build({ faults: ['blocked-port'] });
    const first = localPods(node)[0];
    // The generator blocks the first pod's port: the broken pod is the first one a naive pick takes.
    expect(node.expected.faults[0].objects).toContain(first.id);
    const ps = walkPresets(model);
    expect(sources(ps)).toHaveLength(1);
    expect(sources(ps)[0]).not.toBe(first.ip);
    expect(sources(ps)[0]).toBe(localPods(node)[1].ip);
    const p2o = ps.find((p) => p.key === 'pod-to-outside')!;
    expect(p2o.why).toMatch(new RegExp(`passed over: ${first.ip.replace(/\./g, '\\.')}'s VFP port \\S+ is blocked`));
    expect(p2o.why).toMatch(/with its vNIC in compartment \d+ and VFP port/);
    // The walk from it is not stopped by its own port.
    expect(walkFlow(model, p2o.flow).verdict).toBe('forwarded');
  });

  it('a pod without a vNIC, first in the file, is passed over', () => {
    let first = '';
    const { model } = buildWith({}, (p, t, n) => {
      if (p !== 'ip.txt') return t;
      const e = n.endpoints.filter((x) => x.kind === 'pod')[0];
      first = e.ip!;
      // Its adapter is gone: no adapter in any compartment has its address or MAC.
      return t.replace(`${e.ip}(Preferred)`, '10.99.99.99(Preferred)').split(e.mac!).join('00-15-5D-00-00-01');
    });
    const ps = walkPresets(model);
    expect(sources(ps)).toHaveLength(1);
    expect(sources(ps)[0]).not.toBe(first);
    expect(ps[0].why).toContain(`passed over: ${first} has no vNIC in any compartment`);
    expect(ps.find((p) => p.key === 'host-to-pod')!.flow.dstIp).toBe(sources(ps)[0]);
    // The pod → pod destination is healthy too.
    expect(ps.find((p) => p.key === 'pod-to-pod')!.flow.dstIp).not.toBe(first);
  });

  it('a healthy bundle picks the first pod and says why, with no pod passed over', () => {
    const { model, node } = build();
    const ps = walkPresets(model);
    expect(sources(ps)).toEqual([localPods(node)[0].ip]);
    for (const p of ps) expect(p.why.length, p.key).toBeGreaterThan(30);
    expect(ps[0].why).not.toContain('passed over');
    expect(ps.map((p) => p.key)).toEqual(['pod-to-pod', 'pod-to-pod-remote', 'pod-to-service', 'pod-to-service-tcp', 'pod-to-outside', 'host-to-pod', 'outside-to-nodeport']);
  });

  it('when no pod is healthy, one is still offered and the presets say it is broken', () => {
    const { model } = buildWith({}, (p, t, n) => {
      if (p !== 'ip.txt') return t;
      let out = t;
      for (const e of n.endpoints.filter((x) => x.kind === 'pod')) out = out.replace(`${e.ip}(Preferred)`, '10.99.99.99(Preferred)').split(e.mac!).join('00-15-5D-00-00-01');
      return out;
    });
    const ps = walkPresets(model);
    expect(ps.length).toBeGreaterThan(0);
    expect(ps[0].why).toMatch(/although .* has no vNIC in any compartment: no pod of this node is a healthy source/);
  });
});

describe('named pods and Services first', () => {
  it('a pod Kubernetes names is preferred to an unnamed one, and the Service is named', () => {
    const { model, node } = buildWith({}, undefined, (n) => {
      const list = JSON.parse(kubectlFor(n)) as { items: { kind: string; status?: { podIP?: string } }[] };
      // The snapshot lacks the first two pods (taken before they were created): the third is named.
      const pods: (string | undefined)[] = n.endpoints.filter((x) => x.kind === 'pod').slice(0, 2).map((e) => e.ip);
      list.items = list.items.filter((i) => !(i.kind === 'Pod' && pods.includes(i.status?.podIP)));
      return { 'k8s.json': JSON.stringify(list) };
    });
    const third = localPods(node)[2];
    const ps = walkPresets(model);
    expect(sources(ps)).toEqual([third.ip]);
    expect(ps[0].title).toContain(`default/web-2 (${third.ip})`);
    expect(ps[0].why).toMatch(/a Running pod with its vNIC in compartment \d+ and VFP port \S+, named by the kubectl snapshot/);
    const svc = ps.find((p) => p.key === 'pod-to-service')!;
    const dns = node.loadBalancers.find((l) => l.externalPort === 53 && l.protocol === 17)!;
    expect(svc.flow).toMatchObject({ dstIp: dns.vip, dstPort: 53, proto: 'udp' });
    expect(svc.title).toContain(`${dns.serviceName} ${dns.vip}:53/UDP`);
    expect(svc.why).toContain('the cluster DNS service every pod queries');
  });
});

describe('the report’s default walks', () => {
  it('start from the healthy pod', () => {
    const { model, node } = build({ faults: ['blocked-port'] });
    const doc = buildReport(model, {});
    const blocked = localPods(node)[0].ip;
    expect(doc.traces.length).toBeGreaterThan(3);
    for (const t of doc.traces) expect(t.flow.srcIp).not.toBe(blocked);
    expect(doc.traces.map((t) => t.flow)).toEqual(walkPresets(model).map((p) => p.flow));
  });
});
