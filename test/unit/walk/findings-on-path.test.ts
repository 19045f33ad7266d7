// The walk and the findings meet (analysis/walk/findings-on-path.ts): a check's finding about an object
// or rule on the path sits on the hop it concerns and qualifies the verdict; what the walk sees that no
// check flagged is said too; a walk opened from a finding's "walk this packet" shows that finding.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, localPods } from './helpers.ts';
import { buildWith, kubectlFor } from '../checks/helpers.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { findingViews } from '../../../analysis/view-models/findings.ts';
import type { FindingView } from '../../../analysis/findings/types.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { findingsOnPath, lowerFirst, withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { formatWalk } from '../../../analysis/walk/format.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const views = (m: NodeModel) => findingViews(m, runChecks(m));
const walk = (m: NodeModel, fs: FindingView[], flow: Parameters<typeof walkFlow>[1]) => withPathFindings(m, walkFlow(m, flow, { explain: true }), fs);

/** Removes the first RULE block whose line matches `re` (up to the next blank line). */
function dropRule(text: string, re: RegExp): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const i = lines.findIndex((l) => /^\s*RULE\s*:/.test(l) && re.test(l));
  if (i < 0) throw new Error('rule not found');
  let j = i + 1;
  while (j < lines.length && lines[j].trim() !== '') j++;
  lines.splice(i, j - i + 1);
  return lines.join(eol);
}

describe('a check’s finding on the path', () => {
  it('on a hop object: the load balancer picks a backend whose endpoint has no vNIC — dropped, and …', () => {
    const { model, node } = build({ faults: ['endpoint-without-vnic'] });
    const fs = views(model);
    const vnic = fs.find((f) => f.id === 'endpoint-without-vnic')!;
    const broken = node.expected.faults[0].objects[0];
    const ip = node.expected.endpoints.find((e) => e.id === broken)!.ip;
    const lb = node.loadBalancers.find((l) => !l.isNodePort && l.dips.includes(ip))!;
    const src = localPods(node).find((e) => e.id !== broken)!.ip;
    const r = walk(model, fs, { srcIp: src, dstIp: lb.vip, dstPort: lb.externalPort, proto: lb.protocol === 17 ? 'udp' : 'tcp', dip: ip });
    // Nothing is behind the backend's port to receive it.
    expect(r.verdict).toBe('dropped');
    const on = r.findings!.find((f) => f.key === vnic.key)!;
    expect(on).toBeDefined();
    // The load balancer sent the packet to that backend; the finding is on the hop that decided: its missing vNIC.
    expect(r.hops.some((h) => /DNAT|LB/.test(h.action) && h.after?.dstIp === ip)).toBe(true);
    expect(on.hop).toBe(r.deciding);
    expect(r.hops[on.hop!].kind).toBe('drop');
    expect(on.why).toContain(`pod ${ip}`);
    expect(r.verdictCaveat).toEqual({ severity: 'error', text: expect.stringContaining('has no vNIC in any compartment') });
    // The same packet to a healthy backend carries nothing.
    const ok = lb.dips.find((d) => d !== ip);
    if (ok) {
      const fine = walk(model, fs, { srcIp: src, dstIp: lb.vip, dstPort: lb.externalPort, proto: lb.protocol === 17 ? 'udp' : 'tcp', dip: ok });
      expect(fine.findings).toEqual([]);
      expect(fine.verdictCaveat).toBeUndefined();
    }
  });

  it('on a rule: the exception rule built from an ExceptionList typo, with the condition that matched', () => {
    const { model } = build({ faults: ['exception-list-typo'] });
    const fs = views(model);
    const typo = fs.find((f) => f.id === 'outboundnat-exception-typo')!;
    const r = walk(model, fs, typo.trace!);
    const on = r.findings!.find((f) => f.key === typo.key)!;
    const hop = r.hops[on.hop!];
    expect(hop.rule).toMatch(/^EXCEPTIONS_OUTBOUNDNAT/);
    expect(hop.matchedBecause).toEqual([{ field: 'destination IP', value: '93.184.216.34', condition: '0.0.0.0-255.255.255.255', result: 'match' }]);
    expect(on.why).toContain('0.0.0.0-255.255.255.255');
    expect(on.why).toContain('10.244.0.0/0');
    expect(r.verdict).toBe('forwarded');
    expect(r.verdictCaveat?.text).toMatch(/^OutBoundNAT ExceptionList entry 10\.244\.0\.0\/0/);
  });

  it('a finding about a service is on walks to that service only, not on every walk from the pods it lists', () => {
    const { model } = buildWith({}, (p, t) => (p === 'vfpOutput.txt' ? dropRule(t, /LB_DSR_.*_10\.96\.0\.10_53_53_17\s*$/) : t));
    const fs = views(model);
    const missing = fs.find((f) => f.id === 'lb-rule-missing')!;
    const toDns = walk(model, fs, missing.trace!);
    expect(toDns.verdict).toBe('dropped');
    expect(toDns.findings!.map((f) => f.key)).toEqual([missing.key]);
    expect(toDns.hops[toDns.findings![0].hop!].action).toBe('no load-balancing rule');
    expect(toDns.verdictCaveat?.severity).toBe('error');
    expect(formatWalk(toDns)).toMatch(/verdict: DROPPED( \([^)]*\))?, and no load-balancing rule for 10\.96\.0\.10:53\/UDP/);
    // The same pod to the outside crosses the port the finding lists, but not the service.
    const out = walk(model, fs, { srcIp: missing.trace!.srcIp, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    expect(out.findings).toEqual([]);
  });

  it('a finding about a remote pod subnet is on walks into that subnet from the pods it concerns', () => {
    const { model } = build({ faults: ['missing-remote-subnet-route'] });
    const fs = views(model);
    const f = fs.find((x) => x.id === 'remote-subnet-no-route')!;
    const r = walk(model, fs, f.trace!);
    const on = r.findings!.find((x) => x.key === f.key)!;
    expect(on.why).toContain(f.trace!.dstIp);
    expect(['host-route', 'drop', 'uplink']).toContain(r.hops[on.hop!].kind);
    // A walk to a subnet that does have its route carries nothing.
    const other = model.endpoints!.find((e) => e.isRemote && e.ip && !f.objects.some((o) => o.includes('/') && e.ip!.startsWith(o.split('.').slice(0, 3).join('.') + '.')) && /^10\.244\./.test(e.ip))!;
    expect(walk(model, fs, { srcIp: f.trace!.srcIp, dstIp: other.ip!, dstPort: 80, proto: 'tcp' }).findings).toEqual([]);
  });

  it('info findings are listed but never raise the verdict; a healthy walk carries nothing', () => {
    const { model, node } = build();
    const fs = views(model);
    expect(fs.filter((f) => f.severity !== 'info')).toEqual([]);
    const r = walk(model, fs, { srcIp: localPods(node)[0].ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    expect(r.verdictCaveat).toBeUndefined();
    expect((r.findings ?? []).every((f) => f.severity === 'info')).toBe(true);
    expect(formatWalk(r)).toMatch(/verdict: FORWARDED( \([^)]*\))? — /);
  });
});

describe('the objects a finding names, read as addresses', () => {
  // A finding naming `VIP:port/PROTO` is about that Service; one naming `port/PROTO` about a node port.
  // The VIP is read by parsers/net: an object whose address is not one is no Service at all (read
  // loosely, `999.1.1.1:80/TCP` lost its VIP and stood for the node port 80/TCP on every node address).
  const { model, node } = build();
  const np = node.loadBalancers.find((l) => l.isNodePort && l.protocol === 6)!;
  const flow = { srcIp: localPods(node)[0].ip, dstIp: node.nodeIp, dstPort: np.externalPort, proto: 'tcp' as const };
  const template = views(build({ faults: ['blocked-port'] }).model).find((f) => f.severity === 'error')!;
  const finding = (objects: string[]): FindingView => ({ ...template, objects, refs: [], evidence: [], trace: undefined, key: 'f-test' });
  const on = (objects: string[]) => walk(model, [finding(objects)], flow).findings ?? [];

  it('a node port names the walks to that port on the node', () => {
    expect(on([`${np.externalPort}/TCP`]).map((f) => f.key)).toEqual(['f-test']);
    expect(on([`${np.vip}:${np.externalPort}/TCP`]).map((f) => f.key)).toEqual(['f-test']);
  });
  it('an unparsable address, a port out of range or another VIP is not that node port', () => {
    for (const bad of [`999.1.1.1:${np.externalPort}/TCP`, `10.1.1:${np.externalPort}/TCP`, `${np.externalPort + 65536}/TCP`, `10.96.7.7:${np.externalPort}/TCP`, `${np.vip}:${np.externalPort}/UDP`]) expect(on([bad]), bad).toEqual([]);
  });
});

describe('what the walk sees that no check flagged', () => {
  it('a destination pod without a vNIC (walk-only when the checks did not say it, once when they did)', () => {
    const { model, node } = build({ faults: ['endpoint-without-vnic'] });
    const broken = node.expected.endpoints.find((e) => e.id === node.expected.faults[0].objects[0])!;
    const src = localPods(node).find((e) => e.id !== broken.id)!.ip;
    // Only the findings of other checks (the endpoints check did not run).
    const without = views(model).filter((f) => f.id !== 'endpoint-without-vnic');
    const r = walk(model, without, { srcIp: src, dstIp: broken.ip, dstPort: 80, proto: 'tcp' });
    expect(r.verdict).toBe('dropped');
    expect(r.findings).toEqual([expect.objectContaining({ key: 'walk:destination-without-vnic#1', id: 'destination-without-vnic', severity: 'error', hop: r.hops.length - 1 })]);
    expect(r.verdictCaveat?.text).toMatch(new RegExp(`^destination pod ${broken.ip.replace(/\./g, '\\.')} has no vNIC`, 'i'));
    // With the check's finding on the path, the walk does not say it twice.
    const all = views(model);
    const again = walk(model, all, { srcIp: src, dstIp: broken.ip, dstPort: 80, proto: 'tcp' });
    expect(again.findings!.map((f) => f.id)).toEqual(['endpoint-without-vnic']);
  });

  it('a source pod without a vNIC', () => {
    const { model, node } = build({ faults: ['endpoint-without-vnic'] });
    const broken = node.expected.endpoints.find((e) => e.id === node.expected.faults[0].objects[0])!;
    const r = walk(model, [], { srcIp: broken.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' });
    expect(r.findings).toEqual([expect.objectContaining({ id: 'source-without-vnic', severity: 'error' })]);
    expect(r.hops[r.findings![0].hop!].kind).toBe('source');
  });

  it('a destination that is a Running pod of this node whose HNS endpoint is gone', () => {
    // The kubectl snapshot says default/ghost runs here with an address no HNS endpoint has (its
    // endpoint was deleted while the pod kept running).
    let gone = '';
    const { model, node } = buildWith({}, undefined, (n) => {
      const list = JSON.parse(kubectlFor(n)) as { items: Record<string, unknown>[] };
      const pod = n.endpoints.find((x) => x.kind === 'pod')!;
      gone = pod.ip!.replace(/\.\d+$/, '.200');
      list.items.push({
        apiVersion: 'v1', kind: 'Pod',
        metadata: { name: 'ghost', namespace: 'default', uid: '00000000-0000-0000-0000-0000000000aa' },
        spec: { nodeName: n.hostName, containers: [{ name: 'c' }] },
        status: { phase: 'Running', hostIP: n.nodeIp, podIP: gone, podIPs: [{ ip: gone }] },
      });
      return { 'k8s.json': JSON.stringify(list) };
    });
    const fs = views(model);
    const pod = fs.find((f) => f.id === 'k8s-pod-no-endpoint')!;
    expect(pod.objects).toContain('default/ghost');
    const src = localPods(node)[0].ip;
    const r = walk(model, fs, { srcIp: src, dstIp: gone, dstPort: 80, proto: 'tcp' });
    expect(r.findings!.map((f) => f.key)).toContain(pod.key);
    // Without that check's finding, the walk says it itself.
    const alone = walk(model, fs.filter((f) => f.id !== 'k8s-pod-no-endpoint'), { srcIp: src, dstIp: gone, dstPort: 80, proto: 'tcp' });
    const w = alone.findings!.find((f) => f.id === 'destination-pod-without-endpoint')!;
    expect(w.key).toBe('walk:destination-pod-without-endpoint#1');
    expect(w.title).toContain('default/ghost');
    expect(alone.verdictCaveat?.severity).toBeDefined();
  });
});

describe('the verdict’s caveat', () => {
  it('is the worst finding on the path, preferring the finding this walk exemplifies, and counts the others', () => {
    const { model } = build({ faults: ['duplicate-ip', 'stale-lb-dip'] });
    const fs = views(model);
    const stale = fs.find((f) => f.id === 'lb-stale-dip')!;
    const r = walk(model, fs, stale.trace!);
    expect(r.findings!.map((f) => f.id).sort()).toEqual(['duplicate-ip', 'lb-stale-dip']);
    expect(r.verdictCaveat!.text).toMatch(/^load balancer .* references 1 endpoint that does not exist \(hop \d+\); 1 more finding on this path$/);
    const text = formatWalk(r);
    expect(text).toMatch(/verdict: DELIVERED( \([^)]*\))?, but load balancer /);
    // Each finding is printed under the hop it concerns.
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes(`finding (error): ${stale.title}`));
    const hopHead = lines.slice(0, at).reverse().find((l) => /^\s*\d+\. /.test(l))!;
    expect(Number(hopHead.trim().split('.')[0])).toBe(r.findings!.find((f) => f.key === stale.key)!.hop! + 1);
  });

  it('an ExceptionList typo is on a walk to outside the cluster only: pod → pod and pod → Service are excepted by the intended entries too', () => {
    const { node, model } = build({ faults: ['exception-list-typo'] });
    const fs = views(model);
    const typo = fs.find((f) => f.id === 'outboundnat-exception-typo')!;
    const [a, b] = localPods(node);
    const ids = (flow: Parameters<typeof walkFlow>[1]) => walk(model, fs, flow).findings!.map((f) => f.id);
    expect(ids(typo.trace!)).toContain('outboundnat-exception-typo');
    expect(ids({ srcIp: a.ip!, dstIp: b.ip!, dstPort: 80, proto: 'tcp' })).not.toContain('outboundnat-exception-typo');
    const vip = model.loadBalancers!.find((l) => l.vips.length && l.ports.some((p) => p.protocol === 6))!;
    expect(ids({ srcIp: a.ip!, dstIp: vip.vips[0], dstPort: vip.ports.find((p) => p.protocol === 6)!.externalPort, proto: 'tcp' })).not.toContain('outboundnat-exception-typo');
  });

  it('warnings qualify the verdict as warnings; the reply is joined too', () => {
    const { model } = build({ faults: ['exception-list-typo'] });
    const fs = views(model).map((f) => ({ ...f, severity: 'warning' as const }));
    const typo = fs.find((f) => f.id === 'outboundnat-exception-typo')!;
    const r = withPathFindings(model, walkFlow(model, typo.trace!, { reply: true }), fs);
    expect(r.verdictCaveat?.severity).toBe('warning');
    expect(r.reply?.findings).toBeDefined();
  });

  it('lowerFirst keeps names and acronyms', () => {
    expect(lowerFirst('Endpoint x has no vNIC')).toBe('endpoint x has no vNIC');
    expect(lowerFirst('OutBoundNAT ExceptionList entry')).toBe('OutBoundNAT ExceptionList entry');
    expect(lowerFirst('IP 10.0.0.1 is held by 2 endpoints')).toBe('IP 10.0.0.1 is held by 2 endpoints');
    expect(lowerFirst('VFP port x is blocked')).toBe('VFP port x is blocked');
  });

  it('an empty walk carries no findings', () => {
    const { model } = build();
    expect(findingsOnPath(model, walkFlow(model, { srcIp: '10.0.0.1', dstIp: 'fd00::1', proto: 'tcp' }), views(model))).toEqual({ findings: [] });
  });
});

// ---------------------------------------------------------------------------------------------------
// "Walk this packet": every check that sets `trace` (grep `trace:` in analysis/checks), on bundles that
// make it fire — the hand-written faulty bundles first (shaped unlike the generator's), then generated ones.

/** Every finding id that carries a `trace` (analysis/checks/*.ts). */
const TRACE_IDS = [
  'outboundnat-exception-typo',
  'outboundnat-exception-missing',
  'pod-gateway-wrong',
  'remote-subnet-no-route',
  'remote-subnet-no-policy',
  'lb-stale-dip',
  'lb-rule-missing',
  'drift-lb-dips',
  'dns-vip-no-lb',
  'pod-dns-not-vip',
  'endpoint-without-vnic',
  'vfp-port-blocked',
  'drift-remote-subnet-route',
  'drift-outboundnat',
  'k8s-service-no-lb',
  'k8s-backends-drift',
];

const foreign = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/foreign-faults');

function generated(): { name: string; model: NodeModel }[] {
  const out: { name: string; model: NodeModel }[] = [];
  const add = (name: string, m: { model: NodeModel }) => out.push({ name, model: m.model });
  add('typo', build({ faults: ['exception-list-typo'] }));
  add('gateway', build({ faults: ['wrong-gateway'] }));
  add('no-vnic', build({ faults: ['endpoint-without-vnic'] }));
  add('stale dip', build({ faults: ['stale-lb-dip'] }));
  add('remote route', build({ faults: ['missing-remote-subnet-route'] }));
  add('overlay remote route', build({ network: 'overlay', schema: 1, vfpGeneration: 'list-rule', faults: ['missing-remote-subnet-route'] }));
  add('exception missing', buildWith({}, (p, t) => (p === 'endpoint.txt' ? t.split('"10.244.0.0/16"').join('"10.245.0.0/16"') : t)));
  add('lb rule missing', buildWith({}, (p, t) => (p === 'vfpOutput.txt' ? dropRule(t, /LB_DSR_.*_10\.96\.0\.10_53_53_17\s*$/) : t)));
  add('vfp dip', buildWith({}, (p, t, n) => {
    if (p !== 'vfpOutput.txt') return t;
    const lb = n.loadBalancers.find((l) => l.serviceName.startsWith('default/') && l.serviceName !== 'default/kubernetes' && !l.isNodePort)!;
    return t.split(`{ ${lb.dips[0]} : ${lb.internalPort} }`).join(`{ 10.244.99.99 : ${lb.internalPort} }`);
  }));
  add('dns lb', buildWith({}, (p, t) => (p === 'policy.txt' ? t.split('"10.96.0.10"').join('"10.96.0.11"') : t)));
  add('pod dns', buildWith({}, (p, t) => (p === 'ip.txt' ? t.replace(/(DNS Servers[ .]*: )10\.96\.0\.10/g, '$18.8.8.8') : t), (n) => ({ 'k8s.json': kubectlFor(n) })));
  add('blocked port', build({ faults: ['blocked-port'] }));
  add('service no lb', buildWith({}, undefined, (n) => ({ 'k8s.json': kubectlFor(n, { extraService: true }) })));
  add('stale backend', buildPlatform('eks-vpc-bridge', { faults: ['stale-backend'] }));
  return out;
}

describe('a walk opened from a finding shows that finding on its verdict', () => {
  const cases: { name: string; model: NodeModel }[] = [];
  const seen = new Set<string>();

  it('on the hand-written faulty bundles', async () => {
    for (const d of readdirSync(foreign, { withFileTypes: true }).filter((x) => x.isDirectory())) cases.push({ name: d.name, model: await loadBundle(path.join(foreign, d.name)) });
    expect(cases.length).toBeGreaterThan(5);
    check(cases);
  });

  it('on generated bundles with each fault', () => {
    check(generated());
  });

  it('every check that sets a trace was walked', () => {
    expect([...seen].sort()).toEqual([...TRACE_IDS].sort());
  });

  function check(list: { name: string; model: NodeModel }[]): void {
    for (const { name, model } of list) {
      const fs = views(model);
      for (const f of fs.filter((x) => x.trace)) {
        expect(TRACE_IDS, `${f.id} sets a trace: add it to TRACE_IDS`).toContain(f.id);
        seen.add(f.id);
        const r = walk(model, fs, f.trace!);
        const on = r.findings?.find((x) => x.key === f.key);
        expect(on, `${name}: ${f.key} not on its own walk (${r.verdict}: ${r.reason})`).toBeDefined();
        expect(on!.why.length).toBeGreaterThan(10);
        if (f.severity !== 'info') {
          expect(r.verdictCaveat, `${name}: ${f.key}`).toBeDefined();
          // The verdict names this finding unless a worse one sits on the same path.
          const worse = r.findings!.some((x) => x.key !== f.key && x.severity === 'error' && f.severity === 'warning');
          if (!worse) expect(r.verdictCaveat!.text, `${name}: ${f.key}`).toContain(lowerFirst(f.title));
        }
      }
    }
  }
});
