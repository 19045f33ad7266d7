// View models: what the UI (and reports) show, built from the NodeModel by pure functions. They are
// plain JSON (no class instances, no typed arrays) so they cross IPC and HTTP unchanged.
import type { Severity, SourceRef } from '../../parsers/types.ts';
import type { InspectCounts, PlatformSummary } from '../inspect.ts';
import type { MissingInput } from '../missing.ts';
import type { ObjectRef } from '../findings/types.ts';

export type { ObjectRef };

/** A stable reference to one object of the model, used for selection, search hits and the inspector. */

export const refKey = (r: ObjectRef): string => `${r.type}:${r.id}`;

export interface FileSummary {
  name: string;
  size: number;
  kind: string;
  encoding: string;
  lineEnding?: string;
  used: boolean;
  note?: string;
  errors: number;
  warnings: number;
  issues: { line: number; severity: Severity; message: string }[];
  /** What output it was recognised as, how sure (0..1) and why. */
  format?: string;
  confidence?: number;
  reason?: string;
  /** What it yielded, counted. */
  yields?: Record<string, number>;
}

export interface BundleSummary {
  /** Session-local id of the loaded bundle. */
  id: string;
  location: string;
  sourceKind: 'folder' | 'zip' | 'file';
  hostName?: string;
  windowsBuild?: string;
  schemaVersion?: 1 | 2 | 'mixed';
  vfpGeneration?: string;
  collector?: string;
  networkTypes: string[];
  /** The network plugin and cloud that built the node, with the evidence and the checks that did not run. */
  platform?: PlatformSummary;
  /** The node's Kubernetes name when the kubectl snapshot has its Node object. */
  k8sNodeName?: string;
  counts: InspectCounts;
  files: FileSummary[];
  filesRead: number;
  filesListed: number;
  filesBroken: number;
  unmatched: { kind: string; id: string; message: string; src?: SourceRef }[];
  /** Core inputs the bundle lacks and what that prevents (analysis/missing.ts). */
  missing?: MissingInput[];
  loadMs: number;
}

export type TopoNodeKind =
  | 'uplink' // the external NIC's VFP port / physical adapter
  | 'vswitch'
  | 'network' // HNS network
  | 'host-vnic' // host vNIC port (Container NIC …) and its adapter
  | 'compartment' // a group node holding the pod's adapter and endpoint
  | 'endpoint' // a local HNS endpoint together with its VFP port
  | 'loadbalancer' // one HNS load balancer: VIP(s):port/proto
  | 'lb-group' // collapsed load balancers (big nodes)
  | 'remote-endpoint' // a remote HNS endpoint (DIP on another node)
  | 'remote-subnet' // a remote pod subnet (route or REMOTESUBNETROUTE)
  | 'next-hop' // a remote node / provider address
  | 'vfp-port'; // a pod endpoint's VFP port (attached to its endpoint)

export interface TopoNode {
  id: string;
  kind: TopoNodeKind;
  /** Main label: a name a Windows engineer recognises (network name, pod IP, VIP:port/proto, subnet). */
  label: string;
  /** Secondary lines: IPs, MACs, short GUIDs, counts. */
  details: string[];
  /** Compound parent (compartment group, lb-group). */
  parent?: string;
  /** Drawn folded into this node until the user expands it: a pod's VFP port into its endpoint (the
   *  port shares the endpoint's parent). */
  attachedTo?: string;
  /** What to open in the inspector. */
  ref?: ObjectRef;
  /** Full GUID to copy when the short one is clicked. */
  guid?: string;
  /** Markers: 'blocked', 'no-port', 'no-adapter', 'no-endpoint' (a VFP port or pod adapter no HNS endpoint owns),
   *  'dangling', 'unresolved' (the endpoint list is not in the bundle), 'remote', 'degraded', 'host' (the host
   *  compartment), 'apipa', 'local' (a provider address of this node). */
  flags: string[];
  /** For lb-group: how many load balancers it holds. */
  count?: number;
  /** For lb-group: the load balancers it holds (to expand it or list them in the inspector). */
  members?: ObjectRef[];
  /** Full values of what the details show shortened (endpoint/port GUIDs, long adapter names), to copy. */
  copy?: { label: string; value: string }[];
  /** Layout hint: column from left (uplink) to right (remote). */
  rank: number;
}

export interface TopoEdge {
  id: string;
  source: string;
  target: string;
  kind: 'uplink' | 'attach' | 'lb-dip' | 'route' | 'encap' | 'member' | 'port';
  label?: string;
  /** A dangling reference (e.g. an LB DIP that exists nowhere). */
  broken?: boolean;
  /** Stands for the edges of a group's members (an lb-group → a DIP endpoint, "3 LBs"): drawn only
   *  while the group is folded, its members' own edges when it is open. */
  summary?: boolean;
}

export interface TopologyGraph {
  nodes: TopoNode[];
  edges: TopoEdge[];
  /** Load balancers collapsed into lb-group nodes (expand with the graph options). */
  collapsed: boolean;
  /**
   * What the UI draws folded until the user expands it, kept apart from `nodes`/`edges` so pictures
   * that draw every node (the report) stay as they are: each pod endpoint's VFP port (`attachedTo`
   * its endpoint, joined by a `port` edge) and, when load balancers are grouped, each group's load
   * balancers (children of their lb-group) with their own lb-dip edges.
   */
  attached?: { nodes: TopoNode[]; edges: TopoEdge[] };
}

export interface TopologyOptions {
  /** Show every load balancer as its own node even on big nodes. */
  expandLoadBalancers?: boolean;
  /** Above this many load balancers they are grouped. */
  lbGroupThreshold?: number;
}

/** One row of an inventory table. Cells are display strings; `ref` opens the inspector. */
export interface InventoryRow {
  ref: ObjectRef;
  cells: Record<string, string>;
  flags?: string[];
}

export interface InventoryTable {
  key: 'endpoints' | 'services' | 'routes' | 'ports' | 'networks' | 'compartments';
  title: string;
  columns: { key: string; title: string; mono?: boolean }[];
  rows: InventoryRow[];
}

export interface SearchHit {
  ref: ObjectRef;
  /** What matched, e.g. '10.244.1.5', a MAC, a rule name. */
  text: string;
  /** Kind of object and where, e.g. 'endpoint', 'VFP rule on port 1bc5…'. */
  context: string;
  /** For rule hits: the rule to scroll to in the inspector. */
  rule?: { port: string; layer: string; group: string; rule: string; line: number };
  score: number;
}

export interface InspectorField {
  label: string;
  value: string;
  mono?: boolean;
  /** The value is a reference the user can follow. */
  link?: ObjectRef;
  /** Full value to copy when it is shown shortened. */
  copy?: string;
}

export interface VfpRuleView {
  id: string;
  name: string;
  priority?: number;
  type: string;
  flags: string[];
  conditions: { key: string; value: string }[];
  data: string[];
  counters?: { matched?: number; dropped?: number; pending?: number; droppedFlows?: number };
  src: SourceRef;
}

export interface VfpGroupView {
  id: string;
  name: string;
  priority?: number;
  direction: string;
  ipVersion: string;
  matchType: string;
  conditions: { key: string; value: string }[];
  rules: VfpRuleView[];
  src: SourceRef;
}

export interface VfpLayerView {
  id: string;
  name: string;
  priority?: number;
  flags: string[];
  groups: VfpGroupView[];
  src: SourceRef;
}

export interface PortPolicyView {
  portName: string;
  blocked?: boolean;
  portState: Record<string, string>;
  layers: VfpLayerView[];
  ruleCount: number;
  src: SourceRef;
}

export interface InspectorView {
  ref: ObjectRef;
  title: string;
  subtitle?: string;
  fields: InspectorField[];
  /** Joined objects (network, port, compartment, load balancers using it, …). */
  related: { label: string; ref: ObjectRef; text: string }[];
  /** Problems with this object (failed joins, flags). */
  notes: { severity: Severity; message: string; src?: SourceRef }[];
  /** The VFP policy of the object's port (endpoint, port, host vNIC, uplink), when the bundle has it. */
  policy?: PortPolicyView;
  src?: SourceRef;
  /** The raw JSON document the object came from, pretty-printed (HNS objects). */
  raw?: string;
}

export interface FileExcerpt {
  file: string;
  /** 1-based first line of `lines`. */
  start: number;
  lines: string[];
  focus: number;
  totalLines?: number;
}
