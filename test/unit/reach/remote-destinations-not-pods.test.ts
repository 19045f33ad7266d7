// The matrix's "remote pod subnet" destinations stood for every remote endpoint without a kubectl
// snapshot — the API server's too: "remote pod subnet 192.168.30.0/24" (the WS2019 fixture's API server
// 192.168.30.10, in the node network), "remote pod subnet 20.62.141.0/24" (AKS's public API server
// address), "remote pod subnet 10.0.1.0/24" (the WS2022 overlay's API server, a node). kube-proxy makes a
// remote HNS endpoint for every Service backend off the node (kubernetes/kubernetes pkg/proxy/winkernel),
// so a remote endpoint outside the pod network the bundle shows (analysis/walk/remote-pod.ts: its
// RemoteSubnetRoutes, the cluster range of its OutBoundNAT exceptions) stands for no pod subnet.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { remotePodSubnets } from '../../../analysis/reach/remote-subnets.ts';
import { loadBundle } from '../../../services/bundle/load.ts';

const CASES: [string, string[], string[]][] = [
  ['test/fixtures/foreign/ws2019-flannel-l2bridge-2020', ['10.244.0.0/24', '10.244.1.0/24'], ['192.168.30.0/24']],
  ['test/fixtures/foreign/ws2022-overlay-2024', ['10.244.0.0/24', '10.244.1.0/24'], ['10.0.1.0/24']],
  ['test/fixtures/foreign/aks-win-zip-2025', ['10.224.0.0/24'], ['20.62.141.0/24']],
  // The demo's cluster entry is the typo 10.244.0.0/0: no pod network to tell by, but its load balancer
  // 10.96.0.1:443 → 6443 is the kubernetes Service's, so its backend 10.240.255.5 is the API server.
  ['assets/demo/l2bridge-node', ['10.244.33.0/24', '10.244.34.0/24'], ['10.240.255.0/24']],
];

describe('remote pod subnets are pod subnets', () => {
  for (const [bundle, keep, drop] of CASES)
    it(bundle.split('/').pop()!, async () => {
      const m = await loadBundle(path.resolve(bundle));
      const prefixes = remotePodSubnets(m).map((s) => s.prefix);
      for (const p of keep) expect(prefixes).toContain(p);
      for (const p of drop) expect(prefixes).not.toContain(p);
    });
});
