// Addressing of node k of a generated cluster: the same CIDRs as the platform's single node
// (platforms.ts), with node IPs and pod subnets laid out so that no two nodes share one. Per-node pod
// CIDR plugins get one subnet (or Calico IPAM block) per node; Azure CNI's VNet pods are consecutive
// secondary IPs after each node's own address. The capacity of each layout is checked, never wrapped.
import { intToIp, ipToInt } from './net.ts';
import { addressing, type Addressing } from './platforms.ts';
import type { PlatformName } from './types.ts';

/** How many nodes a cluster of this platform can hold with `pods` pods each. */
export function clusterCapacity(p: PlatformName, pods: number): number {
  switch (p) {
    case 'azure-cni':
      // 10.224.0.0/16 from .4, pods + 1 addresses per node, the last /24 left for the API server.
      return Math.floor((65536 - 256 - 4) / (pods + 1));
    case 'calico-vxlan':
    case 'calico-bgp':
      // /26 blocks of 10.244.0.0/16, block 0 unused.
      return 1023;
    case 'nat':
      return 0;
    default:
      // One /24 per node in the third octet (10.244.x.0/24, 10.0.x.0/24, 10.132.x.0/24), x = 1..250.
      return 250;
  }
}

const plus = (ip: string, n: number) => intToIp((ipToInt(ip) + n) >>> 0);

export function clusterAddressing(p: PlatformName, k: number, pods: number): Addressing {
  const cap = clusterCapacity(p, pods);
  if (k >= cap) throw new Error(`a ${p} cluster holds at most ${cap} nodes of ${pods} pods here`);
  const base = addressing(p, 10, 1, pods);
  const noRemote = (): never => {
    throw new Error('cluster nodes take their peers from the cluster');
  };
  switch (p) {
    case 'azure-cni': {
      const nodeIp = plus('10.224.0.4', k * (pods + 1));
      return { ...base, nodeIp, firstPod: ipToInt(nodeIp) + 1 - ipToInt('10.224.0.0'), remote: noRemote };
    }
    case 'azure-cni-overlay':
      return { ...base, nodeIp: plus('10.224.0.10', k), podSubnet: `10.244.${k + 1}.0/24`, remote: noRemote };
    case 'eks-vpc-bridge':
      return { ...base, nodeIp: `10.0.${k + 1}.4`, nodeSubnet: `10.0.${k + 1}.0/24`, nodeGateway: `10.0.${k + 1}.1`, podSubnet: `10.0.${k + 1}.0/24`, remote: noRemote };
    case 'calico-vxlan':
    case 'calico-bgp':
      return { ...base, nodeIp: plus('10.240.0.10', k), podSubnet: `${plus('10.244.0.0', (k + 1) * 64)}/26`, remote: noRemote };
    case 'ovn-kubernetes':
      return { ...base, nodeIp: plus('10.0.128.10', k), podSubnet: `10.132.${k + 1}.0/24`, remote: noRemote };
    default:
      // flannel host-gw / VXLAN, Antrea: node 10.240.0.0/16, one /24 of 10.244.0.0/16 per node.
      return { ...base, nodeIp: plus('10.240.0.10', k), podSubnet: `10.244.${k + 1}.0/24`, remote: noRemote };
  }
}
