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
  extra?: Record<string, string>;
  src: SourceRef;
}

export interface HnsdiagNamespace {
  id: string;
  endpointIds: string[];
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
  /** `-d` JSON documents, classified and normalised like the HNS files. */
  jsonObjects: HnsdiagJsonObject[];
}
