// internalTrafficPolicy: Local (issue #26 point 3): generated nodes with the policy set on one Service.
// Expected behaviour from kubernetes/kubernetes pkg/proxy/winkernel/proxier.go (syncProxyRules skips a
// remote endpoint only when internalTrafficLocal && localTrafficDSR) — see the check's header.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { checkContext } from '../../../analysis/checks/context.ts';
import { internalTrafficPolicyCheck } from '../../../analysis/checks/internal-traffic-policy.ts';
import { serviceIntents } from '../../../analysis/k8s/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const IDS = ['k8s-internal-local-no-endpoint', 'k8s-internal-local-remote-backends'];

function withPolicy(m: NodeModel, name: string, patch: { internalTrafficPolicy?: string; externalTrafficPolicy?: string }): NodeModel {
  return { ...m, k8s: { ...m.k8s!, services: m.k8s!.services.map((s) => (s.name === name ? { ...s, ...patch } : s)) } };
}
const run = (m: NodeModel) => internalTrafficPolicyCheck.run(checkContext(m));

describe('internalTrafficPolicy: Local', () => {
  const { model } = buildPlatform('flannel-vxlan', { services: 10, seed: 5 });
  const ctx = checkContext(model);
  const local = new Set(ctx.localPods.map((e) => e.ip));
  const intents = serviceIntents(model).filter((i) => !i.nodePort && i.lb && i.ready.length && i.service.name !== 'kubernetes');

  it('the healthy node (every Service Cluster) has no finding', () => {
    expect(run(model).filter((f) => IDS.includes(f.id))).toEqual([]);
  });

  it('a load balancer sending to other nodes although the policy is Local is named, with the remote backends', () => {
    const it0 = intents.find((i) => i.hnsDips.some((ip) => !local.has(ip)));
    expect(it0, 'the generated node has a Service with a remote backend').toBeDefined();
    const f = run(withPolicy(model, it0!.service.name, { internalTrafficPolicy: 'Local' }));
    const hit = f.filter((x) => x.id === 'k8s-internal-local-remote-backends');
    expect(hit.map((x) => x.objects[1])).toContain(`${it0!.service.namespace}/${it0!.service.name}`);
    const remote = it0!.hnsDips.find((ip) => !local.has(ip))!;
    expect(hit[0].explanation).toContain(remote);
    expect(hit[0].evidence.map((e) => e.file)).toContain(it0!.service.src.file);
  });

  it('no local endpoint and no load balancer: pods here get no answer', () => {
    const it0 = intents.find((i) => i.ready.every((ip) => !local.has(ip)))!;
    expect(it0).toBeDefined();
    let m = withPolicy(model, it0.service.name, { internalTrafficPolicy: 'Local', externalTrafficPolicy: 'Local' });
    m = { ...m, loadBalancers: m.loadBalancers!.filter((l) => l.id !== it0.lb!.id) };
    const f = run(m).filter((x) => x.id === 'k8s-internal-local-no-endpoint');
    expect(f.map((x) => x.objects[1])).toContain(`${it0.service.namespace}/${it0.service.name}`);
    expect(f[0].explanation).toMatch(/dropped/);
  });

  it('twin: policy Local, every backend local, load balancer with only local backends: no finding', () => {
    const it0 = intents.find((i) => i.ready.every((ip) => !local.has(ip)))!;
    // Make the first local pod the Service's only ready backend and the only DIP of its load balancers (every port).
    const ip = [...local][0] as string;
    const ep = model.endpoints!.find((e) => e.ip === ip)!;
    let m = withPolicy(model, it0.service.name, { internalTrafficPolicy: 'Local' });
    m = {
      ...m,
      k8s: { ...m.k8s!, endpointSlices: m.k8s!.endpointSlices.map((s) => (s.serviceName === it0.service.name && s.namespace === it0.service.namespace ? { ...s, endpoints: [{ ...s.endpoints[0], addresses: [ip], ready: true }] } : s)) },
      loadBalancers: m.loadBalancers!.map((l) => (l.vips.includes(it0.vip) ? { ...l, endpointIds: [ep.id] } : l)),
    };
    const after = serviceIntents(m).find((i) => i.service.name === it0.service.name && !i.nodePort)!;
    expect(after.ready).toEqual([ip]);
    expect(after.hnsDips).toEqual([ip]);
    expect(run(m).filter((x) => IDS.includes(x.id))).toEqual([]);
  });
});
