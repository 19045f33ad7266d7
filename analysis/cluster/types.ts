// Several nodes of one cluster, each read from its own bundle, joined by what they share: provider
// addresses, pod subnets, remote endpoints, the kubectl snapshot's Node objects and Service VIPs.
// A node is kept as a compact digest (digest.ts: what the others can be checked against) and, when the
// cluster was loaded whole, its model (what walks cross). Joins that do not resolve are kept and said.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { InspectCounts } from '../inspect.ts';
import type { NodeDigest } from './digest.ts';
import type { Duplicate } from './partition.ts';
import type { NodeIdentity } from './node-identity.ts';

/** A bundle line, named with the node whose bundle it is in. */
export interface NodeRef extends SourceRef {
  node: string;
}


export interface ClusterNode {
  /** Unique in the cluster: the host name, with ` (2)` when two bundles name the same host. */
  id: string;
  /** The bundle it was read from (folder or zip path). */
  bundle: string;
  identity: NodeIdentity;
  digest: NodeDigest;
  /** Held only when the cluster was loaded whole (inspect --cluster, trace across nodes). */
  model?: NodeModel;
}

export type JoinKind = 'remote-subnet' | 'host-route' | 'remote-endpoint' | 'k8s-node' | 'service';

/** One thing a node believes about another, and whether an open bundle answers for it. */
export interface ClusterJoin {
  kind: JoinKind;
  /** The node that holds the belief. */
  from: string;
  /** The node it names, when an open bundle is that node. */
  to?: string;
  /** In words: `10.244.1.0/24 → PA 10.240.0.10 (DR MAC 00-15-5D-…)`. */
  what: string;
  /** The address or prefix the join is about. */
  key: string;
  evidence?: SourceRef;
  resolved: boolean;
  /** Why it did not resolve, or what is odd about it. */
  note?: string;
}

/** A Service VIP:port/proto (or a node port) and the nodes that program it. */
export interface ServiceJoin {
  key: string;
  label: string;
  nodes: string[];
}

export interface ClusterModel {
  nodes: ClusterNode[];
  joins: ClusterJoin[];
  services: ServiceJoin[];
  /** Addresses more than one node claims (infrastructure addresses every node has, or a conflict). */
  sharedAddresses: { address: string; nodes: string[] }[];
  /** The node an address names (node IP, provider address, host address), unique in the cluster. */
  nodeOfAddress(ip: string): ClusterNode | undefined;
  /** The node a pod address lives on: its local endpoint, else the one node whose pod subnet holds it. */
  nodeOfPod(ip: string): ClusterNode | undefined;
  /** The node whose pod subnet this is (one node only; a subnet several nodes share owns nothing). */
  ownerOfSubnet(prefix: string): ClusterNode | undefined;
  byId(id: string): ClusterNode | undefined;
  /**
   * The clusters the bundles come from, each a model of its own nodes (partition.ts): one, holding
   * this model itself, when the bundles are of one cluster. The checks compare nodes within a part.
   */
  parts: ClusterModel[];
  /** Why each two parts are taken for different clusters (`a`, `b`: indexes into parts). */
  apart: { a: number; b: number; why: string }[];
  /** Second bundles of a host already open: left out of `nodes`, counted once. */
  duplicates: Duplicate[];
}

export type { InspectCounts };
