// Services realised on this node (issue #26 part 3): one row per Service port with its state and
// evidence, on generated nodes of every platform the generator makes, healthy and with drift injected.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { checkContext } from '../../../analysis/checks/context.ts';
import { serviceStates } from '../../../analysis/checks/service-states.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';
import { PLATFORMS, type PlatformName } from '../../../tools/gen/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const KUBE_PROXY: PlatformName[] = PLATFORMS.filter((p) => p !== 'nat' && p !== 'antrea');

describe('a healthy generated node realises every Service port it has backends for', () => {
  for (const platform of KUBE_PROXY) {
    it(platform, () => {
      const { model } = buildPlatform(platform, { services: 10, seed: 5 });
      const rows = serviceStates(checkContext(model));
      expect(rows.length).toBeGreaterThan(8);
      expect(rows.filter((r) => r.state !== 'realised').map((r) => `${r.namespace}/${r.name} ${r.where} ${r.state}`)).toEqual([]);
      for (const r of rows) expect(r.evidence[0].file).toBe('kubectl-get-all.json');
      const ids = runChecks(model).filter((f) => f.severity !== 'info' && f.area === 'k8s').map((f) => f.id);
      expect(ids).toEqual([]);
    });
  }
  it('Antrea handles Services itself: every row says so instead of accusing HNS', () => {
    const { model } = buildPlatform('antrea', { services: 6 });
    const rows = serviceStates(checkContext(model));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(['not realised in HNS on this plugin']));
  });
});

describe('drift injected', () => {
  it('a load balancer deleted from HNS: that port is "no load balancer", the others stay realised', () => {
    const probe = buildPlatform('flannel-vxlan', { services: 8, seed: 3 });
    const lb = probe.model.loadBalancers!.find((l) => l.vips.length && probe.model.k8s!.services.some((s) => s.clusterIps.includes(l.vips[0]) && s.name !== 'kubernetes'))!;
    const model = withoutLb(probe.model, lb.id);
    const rows = serviceStates(checkContext(model));
    const gone = rows.filter((r) => r.state === 'no load balancer');
    expect(gone.map((r) => r.where)).toContain(`${lb.vips[0]}:${lb.ports[0].externalPort}`);
    expect(gone[0].evidence.map((e) => e.file)).toContain('kubectl-get-all.json');
    expect(inspectDocument(model).services.filter((r) => r.state === 'no load balancer').length).toBe(gone.length);
  });

  it('a stale backend and a missing one are named per Service port', () => {
    const stale = buildPlatform('eks-vpc-bridge', { faults: ['stale-backend'] });
    const [svc, ip] = stale.node.expected.faults[0].objects;
    const rows = serviceStates(checkContext(stale.model)).filter((r) => r.state === 'stale backends');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(`${r.namespace}/${r.name}`).toBe(svc);
      expect(r.detail).toContain(ip);
    }
    const missing = buildPlatform('calico-vxlan', { faults: ['missing-backend'] });
    const m = serviceStates(checkContext(missing.model)).filter((r) => r.state === 'missing backends');
    expect(m.map((r) => `${r.namespace}/${r.name}`)).toContain(missing.node.expected.faults[0].objects[0]);
  });

  it('a node port whose load-balancing rules are gone from the host ports (LB_HOST_ on the host vNIC, LB_ on the uplink) is an error naming the Service', () => {
    const spec = { services: 10, seed: 1 };
    const probe = buildPlatform('flannel-host-gw', spec);
    const np = serviceStates(checkContext(probe.model)).find((r) => r.where.startsWith('NodePort') && r.state === 'realised')!;
    const { model } = buildPlatform('flannel-host-gw', spec, {}, (p, t) => (p === 'vfpOutput.txt' ? dropRule(t, new RegExp(`LB_(HOST_)?[0-9A-F]{5}_[\\d.]+_${np.port}_\\d+_\\d+\\b`)) : t));
    const row = serviceStates(checkContext(model)).find((r) => r.where === np.where && r.proto === np.proto)!;
    expect(row.state).toBe('node port rule missing');
    const f = runChecks(model).find((x) => x.id === 'k8s-nodeport-rule-missing')!;
    expect(f.severity).toBe('error');
    expect(f.title).toContain(`${np.namespace}/${np.name} node port ${np.port}`);
  });

  it('externalTrafficPolicy: Local with no local endpoint: no node port load balancer, said as info, not as an error', () => {
    const spec = { services: 10, seed: 1 };
    const probe = buildPlatform('flannel-host-gw', spec);
    const np = serviceStates(checkContext(probe.model)).find((r) => r.where.startsWith('NodePort') && r.state === 'realised')!;
    const lb = probe.model.loadBalancers!.find((l) => l.ports.some((x) => x.externalPort === np.port))!;
    const edited = buildPlatform('flannel-host-gw', spec, {}, (p, t) => {
      if (p !== 'kubectl-get-all.json') return t;
      const doc = JSON.parse(t);
      const s = doc.items.find((i: { kind: string; metadata: { name: string; namespace: string } }) => i.kind === 'Service' && i.metadata.name === np.name && i.metadata.namespace === np.namespace);
      s.spec.externalTrafficPolicy = 'Local';
      // Every backend of it runs on another node.
      for (const i of doc.items) if (i.kind === 'Pod' && i.spec.nodeName === 'win-node-0') i.spec.nodeName = 'elsewhere';
      for (const i of doc.items) if (i.kind === 'EndpointSlice') for (const e of i.endpoints) if (e.nodeName === 'win-node-0') e.nodeName = 'elsewhere';
      return JSON.stringify(doc);
    });
    const model = withoutLb(edited.model, lb.id);
    const rows = serviceStates(checkContext(model)).filter((r) => r.name === np.name && r.where === np.where);
    expect(rows.map((r) => r.state)).toEqual(['local policy, no local endpoint']);
    const fs = runChecks(model).filter((f) => f.id === 'k8s-local-policy-no-endpoint');
    expect(fs.map((f) => f.severity)).toEqual(['info']);
    expect(runChecks(model).some((f) => f.id === 'k8s-service-no-lb' && f.title.includes(`node port ${np.port}`))).toBe(false);
  });

  it('without the HNS load balancers every row says what it needs', () => {
    const { model } = buildPlatform('flannel-vxlan', {}, {}, undefined);
    const bare = { ...model, loadBalancers: null };
    const rows = serviceStates(checkContext(bare));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.detail).toMatch(/^Insufficient information: needs the HNS load balancers/);
  });
});

/** The node as HNS would be without one load balancer (kube-proxy never recreated it). */
function withoutLb(m: NodeModel, id: string): NodeModel {
  return { ...m, loadBalancers: m.loadBalancers!.filter((l) => l.id !== id), joins: { ...m.joins, loadBalancers: m.joins.loadBalancers.filter((j) => j.loadBalancerId !== id) } };
}

/** Removes every VFP rule whose name matches, with its block (from `RULE :` to the next rule or group). */
function dropRule(text: string, name: RegExp): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*RULE\s*:/.test(lines[i])) {
      let j = i + 1;
      while (j < lines.length && !/^\s*(RULE|GROUP|LAYER)\s*:/.test(lines[j]) && !/^Policy for port|ITEM LIST|Command /.test(lines[j])) j++;
      if (lines.slice(i, j).some((l) => name.test(l))) { i = j - 1; continue; }
    }
    out.push(lines[i]);
  }
  return out.join('\n');
}
