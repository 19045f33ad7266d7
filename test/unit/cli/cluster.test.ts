// The cluster commands over generated clusters: `inspect DIR --cluster`, `trace A B` and `trace DIR`,
// `fleet DIR` — their text, their JSON and their exit codes; zips and folders mixed; an unreadable
// bundle reported while the others are read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli, spawnCli } from '../../helpers/cli.ts';
import { cleanupClusters, writeGeneratedCluster, type WrittenCluster } from '../../helpers/cluster.ts';

let faulty: WrittenCluster;
let zipped: WrittenCluster;

beforeAll(async () => {
  faulty = await writeGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 41, faults: ['stale-pa', 'missing-lb'] });
  zipped = await writeGeneratedCluster({ nodes: 4, platform: 'azure-cni', seed: 42, faults: ['exception-list-differs'] }, { zip: 'flat' });
});
afterAll(cleanupClusters);

describe('hnsight inspect --cluster', () => {
  it('names the nodes, the joins that do not resolve and the odd node of each finding; exit 1', async () => {
    const r = await runCli('inspect', faulty.dir, '--cluster');
    expect(r.code).toBe(1);
    const [n0, , odd] = faulty.plan.nodes;
    expect(r.stdout).toContain('cluster: 3 nodes (Flannel VXLAN)');
    for (const n of faulty.plan.nodes) expect(r.stdout).toContain(`  ${n.host.padEnd(16)} node ${n.nodeIp}`);
    expect(r.stdout).toMatch(new RegExp(`NOT ${odd.host} remote-subnet: ${n0.podSubnet.replace(/[./]/g, '\\$&')} → PA`));
    expect(r.stdout).toContain(`ERROR   cluster-stale-provider-address  ${odd.host} tunnels ${n0.podSubnet}`);
    expect(r.stdout).toContain(`odd: ${odd.host}`);
    expect(r.stdout).toContain(`walk it: hnsight trace ${faulty.dir} --from ${odd.podIps[0]} --to ${n0.podIps[0]}:80`);
  });

  it('--json: the cluster document', async () => {
    const r = await runCli('inspect', faulty.dir, '--cluster', '--json');
    const doc = JSON.parse(r.stdout);
    expect(doc.schema).toBe('hnsight-cluster/1');
    expect(doc.nodes.map((n: { id: string }) => n.id)).toEqual(faulty.plan.nodes.map((n) => n.host));
    expect(doc.nodes[0]).toMatchObject({ nodeIp: faulty.plan.nodes[0].nodeIp, drMac: faulty.plan.nodes[0].drMac, plugin: 'flannel-vxlan' });
    const ids = new Set(doc.findings.map((f: { id: string }) => f.id));
    expect(ids).toEqual(new Set(['cluster-stale-provider-address', 'cluster-remote-endpoint-pa', 'cluster-lb-missing']));
    for (const f of doc.findings) expect(f.nodes.odd).toEqual([faulty.plan.nodes[2].host]);
    expect(doc.unresolved).toBe(doc.joins.filter((j: { resolved: boolean }) => !j.resolved).length);
    // The odd node's own check sees the missing load balancer too (kubectl lists the Service).
    expect(doc.nodes[2].findings.some((f: { id: string }) => f.id === 'k8s-service-no-lb')).toBe(true);
  });

  it('several bundles named one by one; a single bundle folder is refused with a reason', async () => {
    const two = await runCli('inspect', faulty.paths[0], faulty.paths[1], '--cluster', '--json');
    expect(JSON.parse(two.stdout).nodes).toHaveLength(2);
    const one = await runCli('inspect', faulty.paths[0], '--cluster');
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('is one bundle');
  });
});

describe('hnsight trace across nodes', () => {
  it('trace A B: the walk goes on on node B; text headed per node; exit 0', async () => {
    const [n0, n1] = faulty.plan.nodes;
    const r = await runCli('trace', faulty.paths[0], faulty.paths[1], '--from', n0.podIps[0], '--to', `${n1.podIps[0]}:80`, '--reply');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`on ${n0.host} (${faulty.paths[0]})`);
    expect(r.stdout).toContain(`⇒ hand over (VXLAN to ${n1.nodeIp}): ${n0.host} → ${n1.host}`);
    expect(r.stdout).toContain(`on ${n1.host} (${faulty.paths[1]})`);
    expect(r.stdout).toContain('VXLAN decap');
    expect(r.stdout).toMatch(/verdict: DELIVERED .*on win-node-1: delivered to pod/);
    expect(r.stdout).toContain(`reply TCP ${n1.podIps[0]}:80 → ${n0.podIps[0]}:49152`);
  });

  it('trace DIR --json: every hop names its node, bundle and leg', async () => {
    const [n0, n1] = faulty.plan.nodes;
    const r = await runCli('trace', faulty.dir, '--from', n0.podIps[1], '--to', `${n1.podIps[1]}:443`, '--json');
    const doc = JSON.parse(r.stdout);
    expect(doc.verdict).toBe('delivered');
    expect(doc.nodes.map((x: { node: string }) => x.node)).toEqual([n0.host, n1.host]);
    expect(doc.handovers[0]).toMatchObject({ from: n0.host, to: n1.host, via: 'vxlan', address: n1.nodeIp, resolved: true });
    expect(new Set(doc.hops.map((h: { node: string }) => h.node))).toEqual(new Set([n0.host, n1.host]));
    for (const h of doc.hops) {
      expect(h.bundle).toBe(faulty.paths[faulty.plan.nodes.findIndex((n) => n.host === h.node)]);
      expect([0, 1]).toContain(h.leg);
    }
    expect(doc.hops.find((h: { kind: string }) => h.kind === 'deliver').node).toBe(n1.host);
  });

  it('the stale provider address drops the packet at the hand-over: exit 1', async () => {
    const [n0, , odd] = faulty.plan.nodes;
    const r = await runCli('trace', faulty.dir, '--from', odd.podIps[0], '--to', `${n0.podIps[0]}:80`);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`⇒ lost (VXLAN to ${faulty.plan.expected.faults[0].objects[1]})`);
    // The finding across nodes is on the hand-over and in the verdict.
    expect(r.stdout).toMatch(/verdict: DROPPED[^\n]*, and [^\n]*tunnels[^\n]*at the hand-over/);
  });

  it('--json: the findings on the path with their node, the verdict caveat; --no-findings leaves them out', async () => {
    const [n0, , odd] = faulty.plan.nodes;
    const args = ['trace', faulty.dir, '--from', odd.podIps[0], '--to', `${n0.podIps[0]}:80`, '--json'];
    const doc = JSON.parse((await runCli(...args)).stdout);
    const f = doc.findings.find((x: { id: string }) => x.id === 'cluster-stale-provider-address');
    expect(f).toMatchObject({ node: odd.host, acrossNodes: true, severity: 'error' });
    expect(doc.hops[f.hop].kind).toBe('handover');
    expect(doc.verdictCaveat.severity).toBe('error');
    const bare = JSON.parse((await runCli(...args, '--no-findings')).stdout);
    expect(bare.findings).toEqual([]);
    expect(bare.verdictCaveat).toBeNull();
  });
});

describe('hnsight fleet', () => {
  it('--json: one entry per node in the shape asked for, the odd node among the outliers, zips read', async () => {
    const r = await runCli('fleet', zipped.dir, '--json');
    const s = JSON.parse(r.stdout);
    expect(s.nodes).toHaveLength(4);
    for (const n of s.nodes) {
      expect(Object.keys(n).sort()).toEqual(['bundle', 'cniAddP50Ms', 'cniAddP99Ms', 'counts', 'errors', 'host', 'platform', 'warnings', 'windowsBuild'].sort());
      expect(n.bundle.endsWith('.zip')).toBe(true);
      expect(n.platform).toBe('Azure CNI (VNet pod IPs)');
      expect(typeof n.cniAddP99Ms).toBe('number');
    }
    const odd = zipped.plan.nodes[3].host;
    const o = s.outliers.find((x: { measure: string }) => x.measure === 'cluster-exceptions-differ');
    expect(o).toMatchObject({ kind: 'consistency', nodes: [odd] });
    expect(o.detail).toContain('lack 10.224.0.0/12'); // Azure CNI exempts the cluster and the VNet CIDR
    expect(Array.isArray(s.common)).toBe(true);
    expect(r.code).toBe(1);
  });

  it('text: the node lines, then outliers; an unreadable zip and a stray file are said, the rest read', async () => {
    const dir = path.join(faulty.dir, '..', `${path.basename(faulty.dir)}-mixed`);
    await mkdir(dir, { recursive: true });
    const { cp } = await import('node:fs/promises');
    for (const p of faulty.paths) await cp(p, path.join(dir, path.basename(p)), { recursive: true });
    await writeFile(path.join(dir, 'broken.zip'), Buffer.from('PK\u0003\u0004 not really a zip'));
    await writeFile(path.join(dir, 'notes.txt'), 'collected on Tuesday');
    const r = await runCli('fleet', dir);
    expect(r.stdout).toContain('fleet: 4 bundles in');
    for (const n of faulty.plan.nodes) expect(r.stdout).toMatch(new RegExp(`^${n.host} +Flannel VXLAN`, 'm'));
    expect(r.stdout).toMatch(/broken\.zip +not read: /);
    expect(r.stdout).toContain('3 nodes, 1 bundle not read');
    expect(r.stdout).toContain(`cluster-lb-missing (consistency, error)`);
    expect(r.code).toBe(1);
    const { rm } = await import('node:fs/promises');
    await rm(dir, { recursive: true, force: true });
  });

  it('the real command: fleet --json on stdout, exit status of the comparison', async () => {
    const r = await spawnCli('fleet', faulty.dir, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).nodes).toHaveLength(3);
  });
});
