// The ground truth (`expected`) is computed from objects; here it is checked against the written text,
// scanned independently.

import { afterAll, describe, expect, it } from 'vitest';
import type { NodeSpec } from '../../../tools/gen/index.ts';
import { SMALL, cleanupTemps, generate, jsonPart } from './helpers.ts';

afterAll(cleanupTemps);

type J = Record<string, unknown>;

const VARIANTS: NodeSpec[] = [
  SMALL,
  { ...SMALL, seed: 11, network: 'overlay', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' },
  { ...SMALL, seed: 12, network: 'l2bridge', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830', pods: 1, services: 2, remoteNodes: 0 },
  { ...SMALL, seed: 13, network: 'overlay', schema: 2, vfpGeneration: 'get-rule-counter', services: 30 },
  { ...SMALL, seed: 14, network: 'l2bridge', schema: 2, windowsBuild: '10.0.17763.5830' },
];

function ipconfigPart(ip: string): string {
  // Get-NetIPAddress records begin with "IPAddress" at column 0.
  const i = ip.search(/^IPAddress\s+:/m);
  return i < 0 ? ip : ip.slice(0, i);
}

function activeIpv4Routes(routes: string): string[] {
  const lines = routes.split('\n');
  const start = lines.indexOf('IPv4 Route Table');
  const a = lines.indexOf('Active Routes:', start);
  const out: string[] = [];
  for (let i = a + 2; i < lines.length && !lines[i].startsWith('='); i++) out.push(lines[i]);
  return out;
}

describe('expected counts match the written text', () => {
  for (const spec of VARIANTS) {
    it(`${spec.network} schema ${spec.schema} ${spec.vfpGeneration} ${spec.windowsBuild}`, async () => {
      const w = await generate(spec);
      const exp = w.node.expected;
      const vfp = await w.text('vfpOutput.txt');
      const ports = await w.text('ports.txt');
      const ip = await w.text('ip.txt');
      const routes = await w.text('routes.txt');

      expect((vfp.match(/^\s*RULE\s*:/gm) ?? []).length).toBe(exp.counts.vfpRules);
      expect((vfp.match(/^LAYER\s*:/gm) ?? []).length).toBe(exp.counts.vfpLayers);
      const dumped = [...vfp.matchAll(/^Policy for port : \n(\S+)$/gm)].map((m) => m[1]);
      const listed = [...ports.matchAll(/^Port name\s+: (\S+)$/gm)].map((m) => m[1]);
      expect(new Set([...dumped, ...listed]).size).toBe(exp.counts.vfpPorts);
      expect(dumped).toEqual(listed);
      expect((ports.match(/^Get-port-counter for port: {2}\S+$/gm) ?? []).length).toBe(exp.counts.vfpPorts);
      expect(vfp).toContain(spec.vfpGeneration === 'list-rule' ? 'Command list-rule succeeded!' : 'Command get-rule-counter succeeded!');
      expect(vfp.includes('Matched packets')).toBe(spec.vfpGeneration === 'get-rule-counter');

      const ipc = ipconfigPart(ip);
      expect((ipc.match(/^Network Information for Compartment \d+/gm) ?? []).length).toBe(exp.counts.compartments);
      expect((ipc.match(/^\S.* adapter .+:$/gm) ?? []).length).toBe(exp.counts.adapters);
      expect(activeIpv4Routes(routes).length).toBe(exp.counts.ipv4Routes);

      const nets = jsonPart(await w.text('network.txt')) as J[];
      const eps = jsonPart(await w.text('endpoint.txt')) as J[];
      const lbs = jsonPart(await w.text('policy.txt')) as J[];
      const nss = jsonPart(await w.text('namespaces.txt')) as J[];
      expect(nets.length).toBe(exp.counts.networks);
      expect(eps.length).toBe(exp.counts.endpoints);
      expect(lbs.length).toBe(exp.counts.loadBalancers);
      expect(nss.length).toBe(w.node.namespaces.length);

      const v2 = spec.schema === 2;
      const parsedEps = eps.map((e) => ({
        id: e.ID,
        ip: v2 ? (e.IpConfigurations as J[])[0].IpAddress : e.IPAddress,
        mac: e.MacAddress,
        isRemote: v2 ? ((e.Flags as number) & 1) === 1 : e.IsRemoteEndpoint === true,
      }));
      expect(parsedEps).toEqual(exp.endpoints.map((e) => ({ id: e.id, ip: e.ip, mac: e.mac, isRemote: e.isRemote })));
      expect(parsedEps.filter((e) => e.isRemote).length).toBe(exp.counts.remoteEndpoints);

      const parsedLbs = lbs.map((l) =>
        v2
          ? { id: l.ID, vips: l.FrontendVIPs, endpointIds: l.HostComputeEndpoints }
          : { id: l.ID, vips: (l.Policies as J[])[0].VIPs, endpointIds: (l.References as string[]).map((r) => r.replace('/endpoints/', '')) },
      );
      expect(parsedLbs).toEqual(exp.loadBalancers.map((l) => ({ id: l.id, vips: l.vips, endpointIds: l.endpointIds })));

      // Join keys: each local endpoint's port name is a VFP port, found through the allocator.
      for (const e of exp.endpoints.filter((x) => !x.isRemote)) {
        expect(listed).toContain(e.portName);
        const json = eps.find((x) => x.ID === e.id)!;
        const allocs = (v2 ? ((json.Health as J).Extra as J).Resources : json.Resources) as J;
        expect((allocs.Allocators as J[]).find((a) => a.Tag === 'Endpoint Port')!.EndpointPortGuid).toBe(e.portName);
        if (v2 && !w.node.legacyBuild) expect(e.portName).toBe(e.id);
        if (e.compartmentId !== undefined) expect(ipc).toContain(`Network Information for Compartment ${e.compartmentId}`);
      }

      // The DNS VIP is load balanced on UDP and TCP 53; kubernetes on 443.
      const dnsRules = vfp.match(/RULE : LB_DSR_\w+_[\d.]+_10\.96\.0\.10_53_53_(6|17)$/gm) ?? [];
      const podPorts = w.node.endpoints.filter((e) => e.kind === 'pod').length;
      expect(dnsRules.length).toBe(2 * podPorts);
    });
  }

  it('every DIP range of an LB rule lists the backends of its load balancer', async () => {
    const w = await generate(SMALL);
    const vfp = await w.text('vfpOutput.txt');
    for (const lb of w.node.loadBalancers) {
      const name = `LB_DSR_${lb.tag}_${w.node.nodeIp}_${lb.vip}_${lb.externalPort}_${lb.internalPort}_${lb.protocol}`;
      const at = vfp.indexOf(`RULE : ${name}\n`);
      expect(at, name).toBeGreaterThanOrEqual(0);
      const block = vfp.slice(at, vfp.indexOf('FlagsEx', at));
      const dips = [...block.matchAll(/\{ ([\d.]+) : (\d+) \}/g)].map((m) => m[1]);
      expect(dips).toEqual(lb.dips);
    }
  });
});
