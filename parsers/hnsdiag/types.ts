import type { SourceRef } from '../types.ts';
import type { NormalisedHns } from '../hns/normalise.ts';

export type HnsdiagLayout = 'legacy' | 'blocks' | 'json' | 'mixed' | 'empty';

export interface HnsdiagNetwork {
  id: string;
  name: string;
  type?: string;
  /** Columns or block keys not mapped to a field, by their label. */
  extra?: Record<string, string>;
  src: SourceRef;
}

export interface HnsdiagEndpoint {
  id: string;
  name: string;
  ip?: string;
  networkName?: string;
  /**
   * Set when the listing itself does not say whether the endpoint is remote but its name does:
   * kube-proxy's remote endpoints are named "Ethernet" (corpus: hns-endpoint-json AKS#1367,
   * kube-proxy-log-winkernel-spew kubernetes#67827; research: acs-engine#1903 list view, Windows-
   * Containers#631 table — all IsRemoteEndpoint true). An inference, said as one.
   */
  remoteInferred?: string;
  extra?: Record<string, string>;
  src: SourceRef;
}

export interface HnsdiagNamespace {
  id: string;
  endpointIds: string[];
  src: SourceRef;
}

/** `hnsdiag list adapters` (newer builds): the host's network adapters and their compartments. */
export interface HnsdiagAdapter {
  /** Interface GUID, lower case, without braces. */
  id: string;
  name: string;
  description?: string;
  index?: number;
  luid?: string;
  type?: string;
  compartment?: number;
  extra?: Record<string, string>;
  src: SourceRef;
}

export interface HnsdiagLoadBalancer {
  id: string;
  vips: string[];
  dipEndpointIds: string[];
  src: SourceRef;
}

export type HnsdiagJsonObject = NormalisedHns & { line: number };

export interface Hnsdiag {
  layout: HnsdiagLayout;
  /** Summaries from every layout (rows, blocks, and the `-d` JSON objects not listed otherwise). */
  networks: HnsdiagNetwork[];
  endpoints: HnsdiagEndpoint[];
  namespaces: HnsdiagNamespace[];
  loadBalancers: HnsdiagLoadBalancer[];
  /** `hnsdiag list adapters` blocks. */
  adapters: HnsdiagAdapter[];
  /** What was read, when it is not objects: hnsdiag's usage text (the command is not known to this build). */
  usage?: { command?: string; line: number };
  /** `-d` JSON documents, classified and normalised like the HNS files. */
  jsonObjects: HnsdiagJsonObject[];
}
