// A remote HNS endpoint is not always a pod (issue #25, "what nobody looked at"): kube-proxy (winkernel)
// creates a remote endpoint for every Service backend that is not on this node — the API server behind
// default/kubernetes too (test/fixtures/foreign/README.md: "One of them is the API server (192.168.30.10,
// outside the cluster CIDR)"; kubernetes/kubernetes pkg/proxy/winkernel proxier.go, an HNS endpoint per
// non-local backend). The routing hop called such an address "a pod on another node" and, on the default
// route, "only the default route covers this pod address, as expected with Azure CNI" — about the AKS
// API server's public address 20.62.141.9 and the overlay demo's API server 10.240.255.5.
// A remote endpoint is a pod when its address lies in the pod network the bundle shows: the pod
// network's HNS subnets, an HNS RemoteSubnetRoute, or an OutBoundNAT ExceptionList entry that holds this
// node's pods (the cluster range: kubernetes.io Windows debugging tips, "10.244.0.0/16 # Cluster
// subnet"), or when the kubectl snapshot names it as a pod.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow, WalkResult } from '../../../analysis/walk/types.ts';
import { load } from './helpers.ts';

const routeNote = (w: WalkResult) => w.hops.find((h) => h.at === 'host routing')?.note ?? '';

const NOT_PODS: [string, Flow][] = [
  ['test/fixtures/foreign/aks-win-zip-2025', { srcIp: '10.224.0.41', dstIp: '20.62.141.9', dstPort: 443, proto: 'tcp' }],
  ['test/fixtures/foreign/aks-win-zip-2025', { srcIp: '10.224.0.41', dstIp: '20.62.141.9', proto: 'icmp' }],
  ['assets/demo/overlay-node', { srcIp: '10.240.0.36', dstIp: '10.96.0.1', dstPort: 443, proto: 'tcp' }],
  // The ExceptionList also holds the node subnet 192.168.30.0/24, where the host's own endpoint is: no
  // pod range, so the API server 192.168.30.10 in it is still no pod.
  ['test/fixtures/foreign/ws2019-flannel-l2bridge-2020', { srcIp: '10.244.3.5', dstIp: '192.168.30.10', dstPort: 6443, proto: 'tcp' }],
];
// The l2bridge demo's cluster entry is the typo 10.244.0.0/0: no cluster range to tell. Its API server
// is still told by the load balancer: 10.96.0.1:443 → 6443, the kubernetes Service's address
// (remote-pod.ts apiServerBackends), said as inferred.
const API_BY_LB: [string, Flow] = ['assets/demo/l2bridge-node', { srcIp: '10.244.32.3', dstIp: '10.240.255.5', dstPort: 443, proto: 'tcp' }];
const PODS: [string, Flow][] = [
  ['test/fixtures/foreign/aks-win-zip-2025', { srcIp: '10.224.0.41', dstIp: '10.224.0.12', proto: 'icmp' }],
  ['test/fixtures/foreign/ws2019-flannel-l2bridge-2020', { srcIp: '10.244.3.5', dstIp: '10.244.1.11', dstPort: 80, proto: 'tcp' }],
];

describe('a remote endpoint outside the pod network is not called a pod', () => {
  for (const [bundle, f] of NOT_PODS)
    it(`${bundle.split('/').pop()}: ${f.srcIp} → ${f.dstIp}${f.dstPort ? `:${f.dstPort}` : ''}/${f.proto}`, () => {
      const w = walkFlow(load(bundle), f, { reply: true });
      const note = routeNote(w);
      expect(note).toMatch(/remote endpoint/);
      expect(note).not.toMatch(/is a pod on another node/);
      expect(note).not.toMatch(/this pod address/);
      expect(note).toMatch(/outside the pod network/);
    });
});

describe('a bundle whose cluster range is a typo: the kubernetes Service names its backend', () => {
  it(`${API_BY_LB[0].split('/').pop()}: ${API_BY_LB[1].dstIp}`, () => {
    const note = routeNote(walkFlow(load(API_BY_LB[0]), API_BY_LB[1], { reply: true }));
    expect(note).not.toMatch(/outside the pod network/);
    expect(note).not.toMatch(/is a pod on another node/);
    expect(note).toMatch(/the API server, not a pod \(inferred/);
  });
});

describe('a remote endpoint inside the pod network still is', () => {
  for (const [bundle, f] of PODS)
    it(`${bundle.split('/').pop()}: ${f.srcIp} → ${f.dstIp}/${f.proto}`, () => {
      const w = walkFlow(load(bundle), f, { reply: true });
      expect(routeNote(w)).toMatch(/is a pod on another node \(remote endpoint/);
    });
});
