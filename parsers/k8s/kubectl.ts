// Reads `kubectl get pods,svc,endpointslices -A -o json` (a `List`), a single object, or several
// lists concatenated (`kubectl get pods -o json; kubectl get svc -o json > file`). Lines come from the
// item's position in the text, so evidence points at the object a finding is about.
import { IssueSink, type ParseResult } from '../types.ts';
import { LineIndex } from '../json/line-index.ts';
import { scanValueEnd, skipWs } from '../json/structure.ts';
import type { K8sContainerPort, K8sEndpointSlice, K8sNode, K8sPod, K8sService, K8sSnapshot } from './types.ts';
import { isCalico, malformed } from './schema.ts';
import { readNetworkPolicy } from './policy.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function emptySnapshot(): K8sSnapshot {
  return { pods: [], services: [], endpointSlices: [], nodes: [], networkPolicies: [], namespaces: [], other: {}, files: [] };
}

/** True when the text looks like kubectl JSON (an apiVersion/kind document). */
export function looksLikeKubectl(head: string): boolean {
  return /^\uFEFF?\s*[[{]/.test(head) && /"apiVersion"\s*:/.test(head) && /"kind"\s*:\s*"(List|Pod|Service|EndpointSlice|Node|PodList|ServiceList|EndpointSliceList|NodeList|NetworkPolicy|NetworkPolicyList|GlobalNetworkPolicy|GlobalNetworkPolicyList|Namespace|NamespaceList)"/.test(head);
}

export function parseKubectlJson(text: string, file: string): ParseResult<K8sSnapshot> {
  const sink = new IssueSink(file);
  const snap = emptySnapshot();
  snap.files.push(file);
  const lines = new LineIndex(text);
  // Top-level JSON values one after another (a file may hold several `-o json` outputs).
  let pos = 0;
  let docs = 0;
  try {
    while (pos < text.length) {
      pos = skipWs(text, pos, text.length);
      if (text.charCodeAt(pos) === 0xfeff) pos++;
      if (pos >= text.length) break;
      const ch = text[pos];
      if (ch !== '{' && ch !== '[') {
        const nl = text.indexOf('\n', pos);
        // kubectl may print warnings (e.g. `Warning: v1 Endpoints is deprecated`) before the JSON.
        if (docs === 0 && /^(Warning|W\d{4}|E\d{4}|I\d{4})/.test(text.slice(pos, pos + 8))) sink.info(lines.lineOf(pos), 'kubectl message before the JSON skipped');
        else sink.warn(lines.lineOf(pos), 'text outside the JSON skipped');
        if (nl < 0) break;
        pos = nl + 1;
        continue;
      }
      const end = scanValueEnd(text, pos, text.length);
      const endPos = end.ok ? end.end : text.length;
      let value: unknown;
      try {
        value = JSON.parse(text.slice(pos, endPos));
      } catch {
        sink.error(lines.lineOf(pos), end.ok ? 'kubectl JSON does not parse; the objects in it were skipped' : 'kubectl JSON is cut short; complete items before the cut were kept');
        if (!end.ok) readItemsOneByOne(text, pos, lines, snap, sink);
        break;
      }
      docs++;
      collect(value, text, pos, endPos, lines, snap, sink);
      pos = endPos;
    }
  } catch (e) {
    sink.error(0, `kubectl JSON could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (docs === 0 && snap.pods.length + snap.services.length + snap.endpointSlices.length + snap.nodes.length + snap.networkPolicies.length + snap.namespaces.length === 0) sink.warn(0, 'no Kubernetes objects found');
  return { value: snap, issues: sink.issues };
}

/** For a cut file: each complete `{...}` inside the `items` array, parsed alone. */
function readItemsOneByOne(text: string, start: number, lines: LineIndex, snap: K8sSnapshot, sink: IssueSink): void {
  const m = /"items"\s*:\s*\[/g;
  m.lastIndex = start;
  const hit = m.exec(text);
  if (!hit) return;
  let pos = hit.index + hit[0].length;
  while (pos < text.length) {
    pos = skipWs(text, pos, text.length);
    if (text[pos] === ',') pos++;
    pos = skipWs(text, pos, text.length);
    if (text[pos] !== '{') return;
    const end = scanValueEnd(text, pos, text.length);
    if (!end.ok) return;
    try {
      addItem(JSON.parse(text.slice(pos, end.end)), lines.lineOf(pos), snap, sink);
    } catch {
      return;
    }
    pos = end.end;
  }
}

/** Every `"name": "…"` of text[start, end) by its decoded value, in text order (one pass). */
function namePositions(text: string, start: number, end: number): Map<string, { at: number; after: number }[]> {
  const out = new Map<string, { at: number; after: number }[]>();
  const re = /"name"\s*:\s*("(?:[^"\\]|\\.)*")/g;
  re.lastIndex = start;
  for (let m = re.exec(text); m && m.index < end; m = re.exec(text)) {
    let v: unknown;
    try {
      v = JSON.parse(m[1] ?? '');
    } catch {
      continue;
    }
    if (typeof v !== 'string') continue;
    const list = out.get(v) ?? [];
    list.push({ at: m.index, after: m.index + m[0].length });
    out.set(v, list);
  }
  return out;
}

/** The last `"kind"` in text[from, to), or -1: searched forward within the range, never before it. */
function lastKindIn(text: string, from: number, to: number): number {
  let found = -1;
  for (let i = text.indexOf('"kind"', from); i >= 0 && i < to; i = text.indexOf('"kind"', i + 1)) found = i;
  return found;
}

function collect(value: unknown, text: string, start: number, end: number, lines: LineIndex, snap: K8sSnapshot, sink: IssueSink): void {
  const items: unknown[] = Array.isArray(value) ? value : isObj(value) && Array.isArray(value.items) ? value.items : [value];
  // Find each item's line by its metadata name, scanning forward so repeated names resolve in order.
  // The names are found in one pass and each list is walked once: no search of the text per item
  // (a regular expression per name rescanned the rest of the text for every name it missed).
  const names = items.length > 1 ? namePositions(text, start, end) : undefined;
  const next = new Map<string, number>();
  let cursor = start;
  for (const it of items) {
    let line = lines.lineOf(start);
    const md = isObj(it) && isObj(it.metadata) ? it.metadata : undefined;
    const name = md && str(md.name);
    const list = name !== undefined ? (names ?? namePositions(text, start, end)).get(name) : undefined;
    if (name !== undefined && list) {
      let k = next.get(name) ?? 0;
      while (k < list.length && (list[k]?.at ?? Infinity) < cursor) k++;
      next.set(name, k);
      const h = list[k];
      if (h) {
        const before = cursor;
        cursor = h.after;
        // The item starts at the `{` before its metadata: report the `metadata` line's object start.
        const kindAt = lastKindIn(text, before, h.at);
        const brace = text.lastIndexOf('{', kindAt >= start ? kindAt : h.at);
        line = lines.lineOf(brace >= start ? brace : h.at);
      }
    }
    addItem(it, line, snap, sink);
  }
}

function addItem(it: unknown, line: number, snap: K8sSnapshot, sink: IssueSink): void {
  if (!isObj(it)) return;
  const kind = str(it.kind) ?? '';
  const md = isObj(it.metadata) ? it.metadata : {};
  const namespace = str(md.namespace) ?? 'default';
  const name = str(md.name) ?? '';
  const src = sink.ref(line);
  const spec = isObj(it.spec) ? it.spec : {};
  const status = isObj(it.status) ? it.status : {};
  // A malformed object is named at its line and skipped; the others still load.
  const bad = malformed(kind, it.apiVersion, it);
  if (bad) {
    sink.warn(line, `${kind} ${name ? `${md.namespace !== undefined ? `${String(md.namespace)}/` : ''}${name}` : '(no name)'} is malformed and was skipped: ${bad}`);
    return;
  }
  const createdAt = str(md.creationTimestamp);
  if (kind === 'NetworkPolicy' || kind === 'GlobalNetworkPolicy') {
    snap.networkPolicies.push(readNetworkPolicy(it, isCalico(it.apiVersion), src));
  } else if (kind === 'Pod') {
    const ips = [...new Set([...(Array.isArray(status.podIPs) ? status.podIPs.map((p) => (isObj(p) ? str(p.ip) : undefined)).filter((x): x is string => !!x) : []), ...(str(status.podIP) ? [status.podIP as string] : [])])];
    const containerIds = (Array.isArray(status.containerStatuses) ? status.containerStatuses : [])
      .map((c) => (isObj(c) ? str(c.containerID) : undefined))
      .filter((x): x is string => !!x)
      .map((x) => x.replace(/^[a-z]+:\/\//, ''));
    const conds = Array.isArray(status.conditions) ? status.conditions.filter(isObj) : [];
    const readyCond = conds.find((c) => str(c.type) === 'Ready');
    const pod: K8sPod = { namespace, name, uid: str(md.uid), nodeName: str(spec.nodeName), hostIp: str(status.hostIP), ips, phase: str(status.phase), hostNetwork: spec.hostNetwork === true, dnsPolicy: str(spec.dnsPolicy), containerIds, labels: labelsOf(md), ready: readyCond ? str(readyCond.status) === 'True' : undefined, createdAt, containerPorts: containerPorts(spec), serviceAccount: str(spec.serviceAccountName), src };
    snap.pods.push(pod);
  } else if (kind === 'Namespace') {
    // A Namespace has no namespace: its name is metadata.name.
    snap.namespaces.push({ name, labels: labelsOf(md), src });
  } else if (kind === 'Service') {
    const clusterIps = [...new Set([...strs(spec.clusterIPs), ...(str(spec.clusterIP) ? [spec.clusterIP as string] : [])])].filter((x) => x.toLowerCase() !== 'none');
    const lbIngress = isObj(status.loadBalancer) && Array.isArray(status.loadBalancer.ingress) ? status.loadBalancer.ingress : [];
    const svc: K8sService = {
      namespace,
      name,
      type: str(spec.type) ?? 'ClusterIP',
      clusterIps,
      externalIps: strs(spec.externalIPs),
      loadBalancerIps: lbIngress.map((x) => (isObj(x) ? str(x.ip) : undefined)).filter((x): x is string => !!x),
      ports: (Array.isArray(spec.ports) ? spec.ports : []).filter(isObj).map((p) => ({
        name: str(p.name),
        protocol: (str(p.protocol) ?? 'TCP').toUpperCase(),
        port: num(p.port) ?? 0,
        targetPort: typeof p.targetPort === 'number' || typeof p.targetPort === 'string' ? p.targetPort : undefined,
        nodePort: num(p.nodePort),
      })),
      selector: isObj(spec.selector) ? (Object.fromEntries(Object.entries(spec.selector).map(([k, v]) => [k, String(v)])) as Record<string, string>) : undefined,
      externalTrafficPolicy: str(spec.externalTrafficPolicy),
      internalTrafficPolicy: str(spec.internalTrafficPolicy),
      createdAt,
      src,
    };
    snap.services.push(svc);
  } else if (kind === 'EndpointSlice') {
    const labels = isObj(md.labels) ? md.labels : {};
    const slice: K8sEndpointSlice = {
      namespace,
      name,
      serviceName: str(labels['kubernetes.io/service-name']),
      addressType: str(it.addressType),
      endpoints: (Array.isArray(it.endpoints) ? it.endpoints : []).filter(isObj).map((e) => {
        const cond = isObj(e.conditions) ? e.conditions : {};
        const ref = isObj(e.targetRef) ? e.targetRef : undefined;
        return {
          addresses: strs(e.addresses),
          ready: cond.ready !== false,
          serving: typeof cond.serving === 'boolean' ? cond.serving : undefined,
          terminating: typeof cond.terminating === 'boolean' ? cond.terminating : undefined,
          nodeName: str(e.nodeName),
          targetPod: ref && str(ref.kind) === 'Pod' && str(ref.name) ? { namespace: str(ref.namespace) ?? namespace, name: str(ref.name)! } : undefined,
        };
      }),
      ports: (Array.isArray(it.ports) ? it.ports : []).filter(isObj).map((p) => ({ name: str(p.name), port: num(p.port), protocol: (str(p.protocol) ?? 'TCP').toUpperCase() })),
      src,
    };
    snap.endpointSlices.push(slice);
  } else if (kind === 'Node') {
    const conds = Array.isArray(status.conditions) ? status.conditions.filter(isObj) : [];
    const beats = conds.map((c) => str(c.lastHeartbeatTime)).filter((x): x is string => !!x && !Number.isNaN(Date.parse(x)));
    const readyCond = conds.find((c) => str(c.type) === 'Ready');
    const node: K8sNode = {
      name,
      addresses: (Array.isArray(status.addresses) ? status.addresses : []).filter(isObj).map((a) => ({ type: str(a.type) ?? '', address: str(a.address) ?? '' })).filter((a) => a.address),
      podCidrs: [...new Set([...strs(spec.podCIDRs), ...(str(spec.podCIDR) ? [spec.podCIDR as string] : [])])],
      os: labelsOf(md)['kubernetes.io/os'],
      heartbeat: beats.sort((a, b) => Date.parse(b) - Date.parse(a))[0],
      ready: readyCond ? str(readyCond.status) === 'True' : undefined,
      createdAt,
      src,
    };
    snap.nodes.push(node);
  } else if (kind) {
    snap.other[kind] = (snap.other[kind] ?? 0) + 1;
  }
}

/**
 * Every container's declared ports (k8s.io/api core/v1 ContainerPort: name, containerPort, protocol
 * defaulting to TCP); undefined when the pod has no spec.containers in the snapshot.
 */
function containerPorts(spec: Obj): K8sContainerPort[] | undefined {
  if (!Array.isArray(spec.containers)) return undefined;
  const out: K8sContainerPort[] = [];
  for (const c of spec.containers.filter(isObj))
    for (const p of Array.isArray(c.ports) ? c.ports.filter(isObj) : []) {
      const port = num(p.containerPort);
      if (port === undefined) continue;
      out.push({ name: str(p.name), port, protocol: (str(p.protocol) ?? 'TCP').toUpperCase() });
    }
  return out;
}

function labelsOf(md: Obj): Record<string, string> {
  const l = isObj(md.labels) ? md.labels : {};
  return Object.fromEntries(Object.entries(l).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** Several kubectl files of one bundle read as one snapshot. */
export function mergeSnapshots(list: K8sSnapshot[]): K8sSnapshot {
  const out = emptySnapshot();
  for (const s of list) {
    out.pods.push(...s.pods);
    out.services.push(...s.services);
    out.endpointSlices.push(...s.endpointSlices);
    out.nodes.push(...s.nodes);
    out.networkPolicies.push(...s.networkPolicies);
    out.namespaces.push(...s.namespaces);
    for (const [k, n] of Object.entries(s.other)) out.other[k] = (out.other[k] ?? 0) + n;
    out.files.push(...s.files);
  }
  return out;
}
