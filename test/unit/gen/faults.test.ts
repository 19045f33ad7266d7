// Each fault changes the objects and the text consistently, is recorded in expected.faults, and leaves
// every other file byte-identical to the healthy bundle of the same seed.

import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS, type NodeSpec } from '../../../tools/gen/index.ts';
import { SMALL, cleanupTemps, generate, jsonPart, type Written } from './helpers.ts';

afterAll(cleanupTemps);

type J = Record<string, unknown>;

async function changedFiles(a: Written, b: Written): Promise<string[]> {
  expect(b.files).toEqual(a.files);
  const out: string[] = [];
  for (const f of a.files) if (!(await a.raw(f)).equals(await b.raw(f))) out.push(f);
  return out.sort();
}

const L2: NodeSpec = { ...SMALL, seed: 31, pods: 6 };
const OV: NodeSpec = { ...SMALL, seed: 32, pods: 6, network: 'overlay', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' };

/** Files a fault may touch; `must` ones have to change. */
const SCOPE: Record<string, { must: string[]; may: string[] }> = {
  'exception-list-typo': { must: ['endpoint.txt', 'vfpOutput.txt'], may: ['hnsdiag.txt'] },
  'stale-lb-dip': { must: ['policy.txt', 'vfpOutput.txt'], may: ['hnsdiag.txt'] },
  'blocked-port': { must: ['vfpOutput.txt'], may: ['ports.txt'] },
  'endpoint-without-vnic': { must: ['ip.txt', 'routes.txt'], may: [] },
  'wrong-gateway': { must: ['endpoint.txt', 'ip.txt', 'routes.txt'], may: ['hnsdiag.txt'] },
  'duplicate-ip': { must: ['endpoint.txt', 'ip.txt', 'routes.txt'], may: ['hnsdiag.txt', 'vfpOutput.txt'] },
};

describe('fault variants', () => {
  for (const base of [L2, OV]) {
    for (const fault of FAULTS) {
      it(`${fault} on ${base.network} changes only the intended files`, async () => {
        const healthy = await generate(base);
        const faulty = await generate({ ...base, faults: [fault] });
        expect(healthy.node.expected.faults).toEqual([]);
        expect(faulty.node.expected.faults.map((f) => f.name)).toEqual([fault]);
        const changed = await changedFiles(healthy, faulty);
        const scope =
          fault === 'missing-remote-subnet-route'
            ? base.network === 'overlay'
              ? { must: ['vfpOutput.txt'], may: [] }
              : { must: ['routes.txt'], may: [] }
            : SCOPE[fault];
        for (const m of scope.must) expect(changed, `${fault} should change ${m}`).toContain(m);
        for (const c of changed) expect([...scope.must, ...scope.may], `${fault} should not change ${c}`).toContain(c);
      });
    }
  }

  it('exception-list-typo: 10.244.0.0/0 in every pod endpoint and a 0.0.0.0/0-wide exception rule in VFP', async () => {
    const w = await generate({ ...L2, faults: ['exception-list-typo'] });
    const eps = jsonPart(await w.text('endpoint.txt')) as J[];
    const pods = eps.filter((e) => JSON.stringify(e).includes('OutBoundNAT'));
    expect(pods.length).toBe(L2.pods);
    for (const p of pods) expect(JSON.stringify(p)).toContain('"10.244.0.0/0"');
    const vfp = await w.text('vfpOutput.txt');
    expect((vfp.match(/Destination IP : 0\.0\.0\.0-255\.255\.255\.255/g) ?? []).length).toBe(L2.pods);
  });

  it('stale-lb-dip: a load balancer references an endpoint ID that endpoint.txt does not have', async () => {
    const w = await generate({ ...L2, faults: ['stale-lb-dip'] });
    const ids = new Set((jsonPart(await w.text('endpoint.txt')) as J[]).map((e) => e.ID));
    const refs = (jsonPart(await w.text('policy.txt')) as J[]).flatMap((l) => l.HostComputeEndpoints as string[]);
    const stale = refs.filter((r) => !ids.has(r));
    expect(stale).toEqual([w.node.expected.faults[0].objects[1]]);
  });

  it('missing-remote-subnet-route: overlay loses one REMOTESUBNETROUTE per pod port; l2bridge loses one route', async () => {
    const ov = await generate({ ...OV, faults: ['missing-remote-subnet-route'] });
    const ovOk = await generate(OV);
    const count = (s: string) => (s.match(/RULE : REMOTESUBNETROUTE_/g) ?? []).length;
    expect(count(await ovOk.text('vfpOutput.txt')) - count(await ov.text('vfpOutput.txt'))).toBe(OV.pods);
    expect(ov.node.expected.counts.vfpRules).toBe(ovOk.node.expected.counts.vfpRules - OV.pods);
    const l2 = await generate({ ...L2, faults: ['missing-remote-subnet-route'] });
    const missing = l2.node.expected.faults[0].objects[0].split('/')[0];
    const rp = await l2.text('routes.txt');
    expect(rp).not.toContain(` ${missing} `);
    expect(l2.node.expected.counts.ipv4Routes).toBe((await generate(L2)).node.expected.counts.ipv4Routes - 1);
  });

  it('blocked-port: exactly one port reports Blocked : TRUE', async () => {
    const w = await generate({ ...L2, faults: ['blocked-port'] });
    const vfp = await w.text('vfpOutput.txt');
    expect((vfp.match(/Blocked : TRUE/g) ?? []).length).toBe(1);
    expect(w.node.expected.vfpPorts.filter((p) => p.blocked).length).toBe(1);
  });

  it('endpoint-without-vnic: the endpoint exists in HNS but no compartment holds its adapter', async () => {
    const w = await generate({ ...L2, faults: ['endpoint-without-vnic'] });
    const id = w.node.expected.faults[0].objects[0];
    const ep = w.node.endpoints.find((e) => e.id === id)!;
    expect(await w.text('endpoint.txt')).toContain(id);
    expect(await w.text('ip.txt')).not.toContain(`vEthernet (${ep.name})`);
    expect(w.node.expected.endpoints.find((e) => e.id === id)!.compartmentId).toBeUndefined();
    expect(w.node.expected.counts.compartments).toBe((await generate(L2)).node.expected.counts.compartments - 1);
  });

  it('wrong-gateway and duplicate-ip show in ipconfig', async () => {
    const wg = await generate({ ...L2, faults: ['wrong-gateway'] });
    const gws = [...(await wg.text('ip.txt')).matchAll(/Default Gateway[ .]+: (\S+)/g)].map((m) => m[1]);
    expect(gws.filter((g) => g.endsWith('.1') && g.startsWith('10.244.')).length).toBe(1);
    const dup = await generate({ ...L2, faults: ['duplicate-ip'] });
    const v4 = [...(await dup.text('ip.txt')).matchAll(/IPv4 Address[ .]+: (\S+)\(Preferred\)/g)].map((m) => m[1]);
    expect(v4.length - new Set(v4).size).toBe(1);
  });

  it('all faults at once still build', async () => {
    const w = await generate({ ...OV, faults: [...FAULTS] });
    expect(w.node.expected.faults.map((f) => f.name).sort()).toEqual([...FAULTS].sort());
  });
});
