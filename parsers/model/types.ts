// The node model: everything a bundle says about one Windows node, joined across files. Built once
// per load (parsers/model/assemble.ts); analysis/ reads it and never changes it.
import type { ParseIssue, SourceRef } from '../types.ts';
import type { FileKind } from '../bundle/classify.ts';
import type { LineEnding, TextEncodingName } from '../text/decode.ts';
import type { HnsEndpoint, HnsLoadBalancer, HnsNamespace, HnsNetwork } from '../hns/index.ts';
import type { Hnsdiag } from '../hnsdiag/index.ts';
import type { Compartment, IpconfigLanguage, NetIpAddress, NetIpInterface } from '../ipconfig/index.ts';
import type { RoutesResult } from '../routes/types.ts';
import type { ByteSource, VfpIndex, VfpOutputGeneration, VfpPortPolicy, VfpSwitchPort } from '../vfp/index.ts';
import type { K8sSnapshot } from '../k8s/index.ts';
import type { CniBinListing, CniConfigFile } from '../cni/index.ts';
import type { LogFile } from '../logs/index.ts';

export interface BundleFileInfo {
  /** Path relative to the bundle root, '/'-separated. */
  name: string;
  size: number;
  kind: FileKind;
  /** 'not-read' for files listed but not opened (binary logs, captures). */
  encoding: TextEncodingName | 'not-read';
  lineEnding?: LineEnding;
  /** The file's content fed the model (false for a duplicate source or a file hnsight lists only). */
  used: boolean;
  /** Why a recognised file did not feed the model, e.g. a better source of the same objects was present. */
  note?: string;
  /** What output it was recognised as ("Get-HnsNetwork list view", "route print", …). */
  format?: string;
  /** 0..1: how sure the recognition is. */
  confidence?: number;
  /** Why it was recognised so (the evidence, with its line). */
  reason?: string;
  /** What it yielded, counted ("networks": 2, "rules": 14, "log lines": 40); zero counts left out. */
  yields?: Record<string, number>;
  issues: ParseIssue[];
}

export type SchemaVersion = 1 | 2 | 'mixed';

export interface NodeMeta {
  hostName?: string;
  windowsBuild?: string;
  /** HNS schema of the JSON the bundle holds. */
  schemaVersion?: SchemaVersion;
  /** Which vfpctrl verb dumped the rules (dumpVfpPolicies.ps1 switched to get-rule-counter in 2023-04). */
  vfpGeneration?: VfpOutputGeneration;
  /** Which collector wrote the bundle, by its marker files. */
  collector?: string;
  /** Where the objects of each kind came from (file names). */
  sources: Partial<Record<'networks' | 'endpoints' | 'loadBalancers' | 'namespaces' | 'ip' | 'routes' | 'ports' | 'vfp', string[]>>;
}

/** A port known from /list-vmswitch-port, from a vfpOutput port section, or both. */
export interface VfpPortRef {
  /** Lower-case port name (a GUID), the join key. */
  key: string;
  /** As printed. */
  name: string;
  friendlyName?: string;
  mac?: string;
  role: 'external' | 'host-vnic' | 'endpoint' | 'unknown';
  /** The endpoint this port belongs to, when joined. */
  endpointId?: string;
  switchPort?: VfpSwitchPort;
  /** Where its policy lies in a vfp file's index (absent when no rules were dumped for it). */
  policy?: { file: number; port: number; layers: number; groups: number; rules: number; blocked?: boolean; src: SourceRef };
  src: SourceRef;
}

/** The VFP rule dumps: compact indexes over the file bytes, with whole ports parsed on demand. */
export interface VfpStore {
  files: { file: string; bytes: ByteSource; index: VfpIndex }[];
  totals: { ports: number; layers: number; groups: number; rules: number };
  /**
   * Parses and returns the full policy of a port, by name (any case). Parsed ports are kept while they
   * add up to at most `cacheRules` rules, the least recently used dropped first.
   */
  getPolicy(portName: string): VfpPortPolicy | undefined;
  /**
   * The port's sections (port state, NAT ranges, flow stats, at their lines) without parsing its rules
   * when the dump's layout allows (parsers/vfp/port-tail.ts): its layers may be empty. Else getPolicy's.
   */
  getPortSections(portName: string): VfpPortPolicy | undefined;
  /** Rules of parsed ports getPolicy keeps (default 50,000 ≈ 185 MB: a parsed rule costs ≈ 3.7 KB). */
  cacheRules: number;
}

export interface EndpointJoin {
  endpointId: string;
  portKey?: string;
  /** How the VFP port was found. */
  portVia?: 'EndpointPortGuid' | 'endpoint ID';
  compartmentId?: number;
  adapterName?: string;
  adapterVia?: 'ip' | 'mac';
}

export interface LoadBalancerJoin {
  loadBalancerId: string;
  resolved: string[];
  /** Endpoint IDs the load balancer names that exist nowhere in the bundle. */
  dangling: string[];
}

export interface Joins {
  endpoints: EndpointJoin[];
  loadBalancers: LoadBalancerJoin[];
  /** Joins that were expected and failed, for the user to see (never silently dropped). */
  unmatched: { kind: 'endpoint-port' | 'endpoint-adapter' | 'lb-endpoint' | 'port-endpoint'; id: string; message: string; src?: SourceRef }[];
}

/** The text of bundle files, line by line, for quoting evidence. */
export interface EvidenceText {
  /** True when the file's lines can be quoted (kept text, or a VFP dump's bytes). */
  has(file: string): boolean;
  /** The 1-based line of a file, without its line ending; undefined when unknown. */
  lineText(file: string, line: number): string | undefined;
  /** The first line from `fromLine` (inclusive, at most `maxLines` lines on) that passes `test`. */
  find(file: string, fromLine: number, test: (text: string) => boolean, maxLines?: number): { line: number; text: string } | undefined;
}

/** CNI configuration side inputs: every config file found, and the bin directory when it is known. */
export interface CniInputs {
  configs: CniConfigFile[];
  bin?: CniBinListing;
}

export interface NodeModel {
  source: { location: string; kind: 'folder' | 'zip' | 'file'; root: string };
  meta: NodeMeta;
  files: BundleFileInfo[];
  /** null: the bundle has no file that says (not the same as none). */
  networks: HnsNetwork[] | null;
  endpoints: HnsEndpoint[] | null;
  loadBalancers: HnsLoadBalancer[] | null;
  namespaces: HnsNamespace[] | null;
  hnsdiag: Hnsdiag | null;
  ip: { compartments: Compartment[]; language: IpconfigLanguage; netIpAddresses: NetIpAddress[]; netIpInterfaces: NetIpInterface[] } | null;
  routes: RoutesResult | null;
  /** Ports from /list-vmswitch-port, vfpOutput's port table and port sections, deduplicated. */
  ports: VfpPortRef[] | null;
  vfp: VfpStore | null;
  joins: Joins;
  /** Side input: kubectl get pods,svc,endpointslices -o json (absent: none in the bundle). */
  k8s?: K8sSnapshot;
  /** Side input: CNI .conf/.conflist files and the bin directory listing. */
  cni?: CniInputs;
  /** Side input: kubelet, kube-proxy, containerd and CNI agent logs. */
  logs?: LogFile[];
  /** Line text for evidence (kept texts of small files, VFP dump bytes). */
  text?: EvidenceText;
}
