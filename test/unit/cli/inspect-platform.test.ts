// The scenario end to end: an AKS collect-windows-logs zip of an Azure CNI Overlay node, with
// a kubectl snapshot and logs, through `hnsight inspect`. It must name the plugin and cloud,
// report no error (no Flannel gateway or route rule), and carry Kubernetes names on remote pods,
// Services (NodePort too) and node addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildNode, writeBundle } from '../../../tools/gen/index.ts';
// In this process (cli/main.ts, unwrapped text: these assertions read whole lines; the width is tested
// in width.test.ts): the command as a process is tested once, in inspect.test.ts.
import { runCli as run } from '../../helpers/cli.ts';

let tmp: string;
let zip: string;
const node = buildNode({ seed: 6, hostName: 'akswin000002', network: 'l2bridge', platform: 'azure-cni-overlay', schema: 2, pods: 8, services: 12, remoteNodes: 3, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340' });
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'hnsight-aks-'));
  zip = (await writeBundle(node, tmp, { zip: 'flat' })).path;
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('an AKS Azure CNI Overlay node', () => {
  it('inspect --json: the plugin, the cloud, no error, names on every object', async () => {
    const r = await run('inspect', zip, '--json');
    const doc = JSON.parse(r.stdout);
    expect(r.code).toBe(0);
    expect(doc.platform).toMatchObject({ plugin: 'azure-cni-overlay', label: 'Azure CNI Overlay', cloud: 'AKS', confidence: 'high' });
    expect(doc.platform.checks.skipped.map((c: { id: string }) => c.id)).toEqual(['remote-subnets', 'k8s-nodes', 'calico-default-deny']);
    expect(doc.findings.filter((f: { severity: string }) => f.severity !== 'info')).toEqual([]);
    // Remote endpoints are pods on other nodes, named with their node.
    const remote = doc.objects.endpoints.filter((e: { remote: boolean; ip: string }) => e.remote && e.ip.startsWith('10.244.'));
    expect(remote.length).toBeGreaterThan(0);
    for (const e of remote) expect(e.k8s).toMatchObject({ kind: 'Pod', node: expect.stringMatching(/^akswinnp\d+$/) });
    // Every load balancer is a Service port, NodePort ones by their node port.
    for (const lb of doc.objects.loadBalancers) expect(lb.k8s?.kind, JSON.stringify(lb)).toBe('Service');
    const np = node.loadBalancers.filter((l) => l.isNodePort);
    expect(np.length).toBeGreaterThan(0);
    for (const l of np) expect(doc.objects.loadBalancers.find((x: { id: string }) => x.id.toLowerCase() === l.id.toLowerCase()).k8s.port).toMatch(/^NodePort \d+\/(TCP|UDP)$/);
    // This node's address is the Node object of the node.
    expect(doc.objects.nodes.find((n: { ip: string }) => n.ip === node.nodeIp).k8s).toEqual({ kind: 'Node', name: node.nodeName });
  });

  it('inspect (text) says which plugin and why', async () => {
    const r = await run('inspect', zip);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^network plugin: Azure CNI Overlay on AKS \(high confidence\) · pod network azure \(l2bridge\)$/m);
    expect(r.stdout).toMatch(/10-azure\.conflist:\d+ {2}10-azure\.conflist: plugin "azure-vnet" with ipam azure-cns mode "overlay"/);
    expect(r.stdout).toMatch(/not run here: Routes to remote pod subnets/);
  });
});
