// What names a node in a cluster (identity.ts computes it). A leaf module of types, so the node digest
// reads it without importing the cluster model that is built from digests.
import type { SourceRef } from '../../parsers/types.ts';
import type { PluginId } from '../platform/index.ts';

/** How a plugin carries pod traffic to other nodes (analysis/platform/facts.ts `crossNode`). */
export type CrossNode = 'host-routes' | 'remote-subnet-routes' | 'fabric' | 'none' | 'unknown';

/** What names a node and what it owns, from its own bundle. */
export interface NodeIdentity {
  /** The Windows host name (ip.txt), else the bundle's own name. */
  host: string;
  /** The node's address (the pod network's management IP, else the host vNIC's). */
  nodeIp?: string;
  /** The pod network's ProviderAddress policy (overlay): where peers tunnel to. */
  providerAddress?: string;
  /** The pod network's DrMacAddress (overlay): the inner MAC peers address. */
  drMac?: string;
  /** The pod network's VXLAN network ID (VSID). */
  vni?: number;
  /** The host vNIC's MAC. */
  hostMac?: string;
  /** Every address that names this node: node IP, provider address, the host compartment's addresses. */
  addresses: string[];
  /** Pod subnets it says it holds: its pod network's HNS subnets, its Node object's podCIDRs. */
  podSubnets: { prefix: string; from: 'hns' | 'kubectl'; src?: SourceRef }[];
  /** Its Node object in the kubectl snapshot (by address, else by host name). */
  k8sNode?: string;
  plugin: PluginId;
  platformLabel: string;
  crossNode: CrossNode;
  windowsBuild?: string;
  /** Where the identity was read: the pod network's line. */
  src?: SourceRef;
}
