// Routes to other nodes held against the snapshot's Nodes (issue #26 part 4), on every generated
// platform that routes pod traffic itself; Azure CNI and EKS leave it to the fabric (nothing to check).
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import type { PlatformName } from '../../../tools/gen/index.ts';

const ROUTING: PlatformName[] = ['flannel-host-gw', 'flannel-vxlan', 'calico-vxlan', 'calico-bgp', 'antrea', 'ovn-kubernetes'];
// OVN-Kubernetes keeps node subnets in an annotation, not in podCIDR (the generator does the same);
// Antrea routes a prefix through its own first address (the peer's antrea-gw0), so a prefix that
// moved between Nodes looks the same from the route: not checkable there.
const PER_NODE_CIDR: PlatformName[] = ['flannel-host-gw', 'flannel-vxlan'];
const OVERLAY: PlatformName[] = ['flannel-vxlan', 'calico-vxlan', 'ovn-kubernetes'];
const ids = (fs: ReturnType<typeof runChecks>) => fs.filter((f) => f.id.startsWith('k8s-route') || f.id === 'k8s-remote-endpoint-moved' || f.id === 'k8s-nodes-undecided');

type Item = { kind: string; metadata: { name: string }; spec: Record<string, unknown>; status: Record<string, unknown> };
const editSnapshot = (fn: (items: Item[]) => void) => (path: string, text: string) => {
  if (path !== 'kubectl-get-all.json') return text;
  const doc = JSON.parse(text);
  fn(doc.items);
  return JSON.stringify(doc, null, 2);
};
// The generator lists the node the bundle was collected on first (win-node-0, winworker-000, …): the
// others are its peers.
const peers = (items: Item[]) => items.filter((i) => i.kind === 'Node').slice(1).filter((i) => i.spec.podCIDR);

describe('a healthy node: every route leads to the Node that holds the prefix', () => {
  for (const p of ROUTING) it(p, () => expect(ids(runChecks(buildPlatform(p, { remoteNodes: 3 }).model))).toEqual([]));
  it('Azure CNI, Azure CNI Overlay and EKS: the check does not run (the fabric routes pods)', () => {
    for (const p of ['azure-cni', 'azure-cni-overlay', 'eks-vpc-bridge'] as PlatformName[]) {
      const fs = runChecks(buildPlatform(p).model);
      expect(ids(fs)).toEqual([]);
      expect(fs.find((f) => f.id === 'checks-not-applicable')?.explanation ?? '').toContain('Routes to other nodes against the cluster');
    }
  });
});

describe('a node that left the cluster: its route leads to an address no Node has', () => {
  for (const p of ROUTING) {
    it(p, () => {
      let gone = { name: '', ip: '' };
      const { model } = buildPlatform(p, { remoteNodes: 3 }, {}, editSnapshot((items) => {
        // OVN-Kubernetes keeps a node's subnet in an annotation, not spec.podCIDR: then any peer.
        const n = peers(items)[0] ?? items.filter((i) => i.kind === 'Node')[1]!;
        gone = { name: n.metadata.name, ip: (n.status.addresses as { type: string; address: string }[]).find((a) => a.type === 'InternalIP')!.address };
        items.splice(items.indexOf(n), 1);
      }));
      const fs = ids(runChecks(model)).filter((f) => f.id === 'k8s-route-to-unknown-node');
      expect(fs.length, `${p}: a route via ${gone.ip} (${gone.name})`).toBeGreaterThan(0);
      for (const f of fs) {
        // Antrea routes through the peer's antrea-gw0 (the first address of its pod CIDR), the others through its node address.
        if (p !== 'antrea') expect(f.objects).toContain(gone.ip);
        expect(f.severity).toBe(p === 'calico-bgp' ? 'warning' : 'error');
        expect(f.evidence[0].file).toMatch(/network|route/i);
      }
    });
  }
});

describe("a prefix that moved: the route leads to another Node than the one whose pod CIDR it is", () => {
  for (const p of PER_NODE_CIDR) {
    it(p, () => {
      const { model } = buildPlatform(p, { remoteNodes: 3 }, {}, editSnapshot((items) => {
        const [a, b] = peers(items);
        [a.spec.podCIDR, b.spec.podCIDR] = [b.spec.podCIDR, a.spec.podCIDR];
        [a.spec.podCIDRs, b.spec.podCIDRs] = [b.spec.podCIDRs, a.spec.podCIDRs];
      }));
      const fs = ids(runChecks(model)).filter((f) => f.id === 'k8s-route-to-wrong-node');
      expect(fs.length).toBeGreaterThanOrEqual(2);
      expect(fs[0].title).toMatch(/but the prefix is .+'s pod CIDR/);
    });
  }
});

describe('an IP reused on another node: the remote endpoint still points at the old one', () => {
  for (const p of OVERLAY) {
    it(p, () => {
      const probe = buildPlatform(p, { remoteNodes: 3 });
      const ep = probe.model.endpoints!.find((e) => e.isRemote && e.providerAddress && probe.model.k8s!.pods.some((x) => x.ips.includes(e.ip!)));
      if (!ep) throw new Error(`${p}: the generator made no remote endpoint of a pod`);
      let to = '';
      const { model } = buildPlatform(p, { remoteNodes: 3 }, {}, editSnapshot((items) => {
        const pod = items.find((i) => i.kind === 'Pod' && (i.status.podIP === ep.ip))!;
        const other = items.find((i) => i.kind === 'Node' && i.metadata.name !== pod.spec.nodeName && i.metadata.name !== 'win-node-0')!;
        pod.spec.nodeName = other.metadata.name;
        to = other.metadata.name;
      }));
      const f = ids(runChecks(model)).find((x) => x.id === 'k8s-remote-endpoint-moved')!;
      expect(f.title).toContain(`its pod runs on ${to}`);
      expect(f.objects).toEqual([ep.ip, ep.providerAddress, to]);
    });
  }
});
