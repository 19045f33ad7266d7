// The Services table's rows: each Service port of the kubectl snapshot with its state on this node —
// the very rows `inspect --json` gives as `services` (analysis/checks/service-states.ts, one source of
// truth) — and beside them what the table shows of the Service: its type, VIP, policies, how many
// ready backends the snapshot has against how many the HNS load balancer sends to, and the packet a
// walk from a local pod sends to it. What the bundle lacks to decide is said in words, never a blank.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { FindingEvidence } from '../findings/types.ts';
import type { Flow, Proto } from '../walk/types.ts';
import type { ServiceRow, ServiceState } from '../checks/service-states.ts';
import { serviceRows } from '../inspect.ts';
import { serviceIntents, skewNote, snapshotMoments, type ServiceIntent } from '../k8s/index.ts';
import { nodeAddress } from '../platform/index.ts';

/** How a row is drawn: realised, realised with a lesser fault (amber), not realised, by design (not a fault), or undecided. */
export type ServiceTone = 'ok' | 'warn' | 'bad' | 'design' | 'unknown';

export interface ServiceTableRow {
  /** Unique within the table: `namespace/name|where|proto`. */
  key: string;
  namespace: string;
  name: string;
  port: number;
  proto: string;
  /** `10.96.0.10:53` or `NodePort 30217` (inspect's `where`). */
  where: string;
  /** The Service's type (ClusterIP, NodePort, LoadBalancer). */
  type: string;
  /** The ClusterIP of a ClusterIP row; '' on a node port row. */
  vip: string;
  nodePort: boolean;
  /** Ready backends in the snapshot (EndpointSlices, else the selector's Running pods). */
  ready: number;
  /** Backends the HNS load balancer sends to; null when there is no load balancer. */
  hnsBackends: number | null;
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  /** inspect's state, unchanged. */
  state: ServiceState;
  /** inspect's lesser fault of a realised row (the DSR hairpin rule missing). */
  warning?: ServiceRow['warning'];
  /** The state in words as the table shows it (adds what is missing to decide). */
  stateText: string;
  tone: ServiceTone;
  detail: string;
  evidence: FindingEvidence[];
  /** A packet from a local pod to this Service port (its VIP, or this node's address for a node port). */
  walk?: Flow;
}

export interface ServicesTableView {
  rows: ServiceTableRow[];
  /** Why there are no rows, and what to collect (absent when there are rows). */
  empty?: { text: string; collect?: string };
  /** Sentences that apply to every row (the snapshot's moment, a missing VFP dump). */
  notes: string[];
}

export const SNAPSHOT_COMMAND = 'kubectl get pods,services,endpointslices,nodes,networkpolicies -A -o json > kubectl-get-all.json';
const VFP_NEEDED = 'the VFP dump (vfpctrl /list-vmswitch-port and each port\'s rules, as CollectLogs writes them to vfpOutput.txt)';

const TONE: Record<ServiceState, ServiceTone> = {
  realised: 'ok',
  'no ready backends': 'design',
  'local policy, no local endpoint': 'design',
  'no load balancer': 'bad',
  'stale backends': 'bad',
  'missing backends': 'bad',
  'vfp rule missing': 'bad',
  'node port rule missing': 'bad',
  'not realised in HNS on this plugin': 'unknown',
  'insufficient information': 'unknown',
};

export const rowKey = (r: Pick<ServiceRow, 'namespace' | 'name' | 'where' | 'proto'>) => `${r.namespace}/${r.name}|${r.where}|${r.proto}`;

const PROTO: Record<string, Proto> = { TCP: 'tcp', UDP: 'udp' };

/** The rows of `inspect --json` (`serviceStates`) with the table's columns joined. */
export function servicesTable(m: NodeModel, rows: ServiceRow[] = serviceRows(m)): ServicesTableView {
  if (!m.k8s) {
    return {
      rows: [],
      notes: [],
      empty: {
        text: 'Insufficient information: needs a kubectl snapshot. This bundle has none, so hnsight cannot say which Services the cluster declares nor whether this node realises them. Save the cluster\'s objects beside the node\'s logs and open them together:',
        collect: SNAPSHOT_COMMAND,
      },
    };
  }
  // The intents again, without the VFP reading (the expensive part, already in `rows`): they carry the
  // Service's type, policies and backends, which the row does not.
  const intents = new Map<string, ServiceIntent>();
  for (const it of serviceIntents(m)) {
    const where = it.nodePort ? `NodePort ${it.port}` : `${it.vip}:${it.port}`;
    const k = rowKey({ namespace: it.service.namespace, name: it.service.name, where, proto: it.protocol });
    if (!intents.has(k)) intents.set(k, it);
  }
  const ctxPods = (m.endpoints ?? []).filter((e) => !e.isRemote && e.ip && !e.ip.includes(':') && !/^169\.254\./.test(e.ip));
  const nodeIp = nodeAddress(m);
  const out: ServiceTableRow[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    let key = rowKey(r);
    // Keys stay unique even if a snapshot lists one Service twice.
    for (let n = 2; seen.has(key); n++) key = `${rowKey(r)}#${n}`;
    seen.add(key);
    const it = intents.get(rowKey(r));
    const svc = it?.service;
    const unconfirmed = r.state === 'realised' && !m.vfp;
    const stateText = r.state === 'insufficient information' ? 'insufficient information: needs the HNS load balancers' : unconfirmed ? `realised in HNS; VFP: insufficient information, needs ${VFP_NEEDED}` : r.warning ? `${r.state}, ${r.warning}` : r.state;
    const dst = r.where.startsWith('NodePort ') ? nodeIp : it?.vip;
    const proto = PROTO[r.proto];
    // From a local pod that is not itself a backend where one exists (a backend reaching its own VIP is hairpin, a case of its own).
    const backends = new Set(it ? [...it.ready, ...it.hnsDips] : []);
    const src = ctxPods.find((e) => !backends.has(e.ip!)) ?? ctxPods[0];
    out.push({
      key,
      namespace: r.namespace,
      name: r.name,
      port: r.port,
      proto: r.proto,
      where: r.where,
      type: svc?.type ?? '',
      vip: it?.vip ?? '',
      nodePort: it?.nodePort ?? r.where.startsWith('NodePort '),
      ready: it?.ready.length ?? 0,
      hnsBackends: it?.lb ? it.hnsDips.length : null,
      externalTrafficPolicy: svc?.externalTrafficPolicy,
      internalTrafficPolicy: svc?.internalTrafficPolicy,
      state: r.state,
      ...(r.warning ? { warning: r.warning } : {}),
      stateText,
      tone: unconfirmed ? 'unknown' : r.warning ? 'warn' : TONE[r.state],
      detail: r.detail,
      evidence: r.evidence,
      walk: src?.ip && dst && proto ? { srcIp: src.ip, dstIp: dst, dstPort: r.port, proto } : undefined,
    });
  }
  const notes: string[] = [];
  const skew = skewNote(snapshotMoments(m)).text;
  if (skew) notes.push(skew);
  if (!m.vfp && out.length) notes.push(`Insufficient information for the VFP rules: needs ${VFP_NEEDED}. The states come from HNS alone.`);
  return {
    rows: out,
    notes,
    empty: out.length ? undefined : { text: 'The kubectl snapshot lists no Service with an IPv4 cluster IP (ExternalName and headless Services are not load-balanced).' },
  };
}
