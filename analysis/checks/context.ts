// Facts several checks need, computed once per model: the pod network(s), the node's addresses, the
// local pod endpoints, the cluster's pod ranges, and helpers that turn a source line into evidence.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsNetwork, HnsSubnet } from '../../parsers/hns/index.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { VfpPortPolicy, VfpRule } from '../../parsers/vfp/index.ts';
import { intToIpv4, prefixRange4 } from '../../parsers/net/ip.ts';
import { walkContext, type WalkContext } from '../walk/context.ts';
import { spend } from '../budget.ts';
import type { Finding, FindingEvidence } from '../findings/types.ts';
import { detectPlatform, factsOf, podNetworkOf, type Platform, type PluginFacts } from '../platform/index.ts';
import { portRules } from './port-rules.ts';

export interface Range {
  lo: number;
  hi: number;
}

export interface CheckContext {
  m: NodeModel;
  tc: WalkContext;
  /** The network plugin that built the node (analysis/platform) and its facts (undefined: unknown). */
  platform: Platform;
  facts?: PluginFacts;
  /** kube-proxy programs HNS load balancers here (the plugin says so, or the bundle has some). */
  kubeProxy: boolean;
  /** The networks that hold pods (l2bridge / overlay / transparent with local endpoints, else the detected one). */
  podNetworks: HnsNetwork[];
  nodeIp?: string;
  /**
   * Local endpoints that are pods: an IP, not in the host compartment, not an infrastructure endpoint
   * of the plugin (cbr0_ep, Calico_ep, VIPEndpoint, the bridge endpoint at .2 on plugins that have
   * one), not kube-proxy's source-VIP endpoint.
   */
  localPods: HnsEndpoint[];
  /**
   * The endpoint a finding's "walk this packet" starts from when the finding is not about that pod: the
   * first of `eps` whose vNIC is in a compartment (a pod without one receives and sends nothing, so a
   * walk from it shows its own fault, not the finding's); the first of `eps` when none has, or when
   * ip.txt is missing.
   */
  traceSource<T>(eps: T[], ep?: (x: T) => HnsEndpoint): T | undefined;
  networkOf(ep: HnsEndpoint): HnsNetwork | undefined;
  subnetOf(ep: HnsEndpoint): HnsSubnet | undefined;
  portOf(ep: HnsEndpoint): VfpPortRef | undefined;
  /** A port's parsed policy (cached by the store), undefined when no rules were dumped. */
  policy(port: VfpPortRef): VfpPortPolicy | undefined;
  /** A port's sections (port state, NAT ranges) without its rules where the dump allows: layers may be empty. */
  sections(port: VfpPortRef): VfpPortPolicy | undefined;
  /**
   * A port's rules in file order, without parsing the port whole: rules sharing a name across ports are
   * read once (port-rules.ts). What a check that looks at every pod port should use.
   */
  rules(port: VfpPortRef): VfpRule[];
  /**
   * The same rules as ids (port-rules.ts), for a check that works a fact out once per rule: `ruleById`
   * gives the rule, one id per rule object, so a per-rule fact can live in an array indexed by id.
   */
  ruleIds(port: VfpPortRef): Uint32Array;
  ruleById(id: number): VfpRule | undefined;
  /** Evidence for an object: the line holding `needle` at or after `src.line`, else the object's line. */
  ev(src: SourceRef | undefined, needle?: string | RegExp, maxLines?: number): FindingEvidence;
  /** Evidence saying a file is missing or lacks something. */
  absent(file: string, text: string): FindingEvidence;
  /** Evidence for a VFP port's section: its `Policy for port` line, with the port name and a remark. */
  portEv(port: VfpPortRef, remark?: string): FindingEvidence;
  fileExists(re: RegExp): boolean;
  /**
   * Why the objects of a kind cannot be trusted to be complete (their file is cut, unreadable or
   * empty), or undefined. A check that would accuse on a missing object says "cannot decide" instead.
   */
  unreliable(kind: 'loadBalancers' | 'endpoints' | 'routes' | 'ip' | 'vfp'): string | undefined;
  /** Downgrades a finding to a warning marked undecided when one of `kinds` is unreliable. */
  hedge<T extends Finding>(f: T, ...kinds: ('loadBalancers' | 'endpoints' | 'routes' | 'ip' | 'vfp')[]): T;
}

export function ipRange(cidr: string): Range | undefined {
  const r = prefixRange4(cidr);
  return r && { lo: r.lo, hi: r.hi };
}

export function ipNum(ip: string | undefined): number | undefined {
  const r = ip ? ipRange(`${ip}/32`) : undefined;
  return r?.lo;
}

export const covers = (outer: Range, inner: Range) => outer.lo <= inner.lo && outer.hi >= inner.hi;
export const inRange = (r: Range, n: number) => n >= r.lo && n <= r.hi;

export function intToIp(n: number): string {
  return intToIpv4(n >>> 0) as string;
}

export function rangeText(r: Range): string {
  const size = r.hi - r.lo + 1;
  const bits = 32 - Math.log2(size);
  return Number.isInteger(bits) && r.lo % size === 0 ? `${intToIp(r.lo)}/${bits}` : `${intToIp(r.lo)}-${intToIp(r.hi)}`;
}

/** Every rule of a port's policy with its layer name. */
export function rulesOf(p: VfpPortPolicy): { layer: string; group: string; direction: string; rule: VfpRule }[] {
  const out: { layer: string; group: string; direction: string; rule: VfpRule }[] = [];
  for (const l of p.layers) for (const g of l.groups) for (const r of g.rules) out.push({ layer: l.friendlyName ?? l.id, group: g.friendlyName ?? g.id, direction: g.direction, rule: r });
  // Every check that looks at rules comes through here: their count is work against its budget.
  spend(out.length);
  return out;
}

/** The destination IPv4 ranges a rule matches (from its conditions). */
export function ruleDstRanges(r: VfpRule): Range[] {
  return r.conditions.filter((c) => c.kind === 'dstIp').flatMap((c) => c.ipRanges ?? []);
}

const contexts = new WeakMap<NodeModel, CheckContext>();

export function checkContext(m: NodeModel): CheckContext {
  let c = contexts.get(m);
  if (c) return c;
  const tc = walkContext(m);
  const platform = detectPlatform(m);
  const facts = factsOf(platform.plugin);
  const POD_TYPES = new Set(['l2bridge', 'overlay', 'transparent']);
  const byId = new Map((m.networks ?? []).map((n) => [n.id.toLowerCase(), n]));
  const byName = new Map((m.networks ?? []).map((n) => [n.name.toLowerCase(), n]));
  const holding = new Set<HnsNetwork>();
  for (const e of m.endpoints ?? []) {
    if (e.isRemote || !e.ip) continue;
    const n = (e.networkId && byId.get(e.networkId.toLowerCase())) || (e.networkName && byName.get(e.networkName.toLowerCase()));
    if (n && POD_TYPES.has(n.type)) holding.add(n);
  }
  const detected = podNetworkOf(m);
  const podNetworks = holding.size ? (m.networks ?? []).filter((n) => holding.has(n)) : detected && POD_TYPES.has(detected.type) ? [detected] : (m.networks ?? []).filter((n) => n.type === 'l2bridge' || n.type === 'overlay');
  const networkOf = (ep: HnsEndpoint) => (ep.networkId && byId.get(ep.networkId.toLowerCase())) || (ep.networkName && byName.get(ep.networkName.toLowerCase())) || (podNetworks.length === 1 ? podNetworks[0] : undefined);
  const subnetOf = (ep: HnsEndpoint) => {
    const n = ipNum(ep.ip);
    if (n === undefined) return undefined;
    return networkOf(ep)?.subnets.find((s) => {
      const r = ipRange(s.prefix);
      return r && inRange(r, n);
    });
  };
  const joins = new Map(m.joins.endpoints.map((j) => [j.endpointId, j]));
  const infra = new Set((facts?.infraEndpoints ?? ['cbr0_ep', 'Calico_ep', 'VIPEndpoint']).map((x) => x.toLowerCase()));
  const sourceVips = new Set((m.loadBalancers ?? []).map((l) => l.sourceVip).filter((x): x is string => !!x));
  // The bridge endpoint sits at .2 of the pod subnet on plugins whose pods route through the host
  // (Flannel host-gw, Calico BGP). Elsewhere .2 is an ordinary pod address (Azure CNI Overlay hands it out).
  const bridgeAtDot2 = facts ? facts.gateway?.rule === 'dot2' : true;
  const localPods = (m.endpoints ?? []).filter((e) => {
    if (e.isRemote || !e.ip) return false;
    const j = joins.get(e.id);
    if (j?.compartmentId === 1) return false;
    if (infra.has(e.name.toLowerCase())) return false;
    const net = networkOf(e);
    if (net && !POD_TYPES.has(net.type)) return false;
    if (sourceVips.has(e.ip) && !j?.compartmentId) return false;
    const s = subnetOf(e);
    const r = s && ipRange(s.prefix);
    if (bridgeAtDot2 && net?.type === 'l2bridge' && r && ipNum(e.ip) === r.lo + 2) return false;
    return true;
  });
  const files = m.files.map((f) => f.name);
  const ev = (src: SourceRef | undefined, needle?: string | RegExp, maxLines = 800): FindingEvidence => {
    if (!src) return { file: '', line: 0, text: '' };
    const t = m.text;
    if (needle !== undefined && t?.has(src.file)) {
      const low = typeof needle === 'string' ? needle.toLowerCase() : '';
      const test = typeof needle === 'string' ? (l: string) => l.toLowerCase().includes(low) : (l: string) => needle.test(l);
      const hit = t.find(src.file, src.line, test, maxLines);
      if (hit) return { file: src.file, line: hit.line, text: hit.text.trim() };
    }
    return { file: src.file, line: src.line, text: (t?.lineText(src.file, src.line) ?? '').trim() };
  };
  const unreliable = (kind: 'loadBalancers' | 'endpoints' | 'routes' | 'ip' | 'vfp'): string | undefined => {
    const src = m.meta.sources[kind]?.[0];
    if (!src) return undefined;
    const f = m.files.find((x) => x.name === src);
    const err = f?.issues.find((i) => i.severity === 'error');
    if (err) return `${src} could not be read completely (${src}:${err.line}: ${err.message})`;
    const list = kind === 'routes' || kind === 'ip' || kind === 'vfp' ? null : m[kind];
    const warn = f?.issues.find((i) => i.severity === 'warning');
    if (list && list.length === 0 && warn) return `${src} yielded no objects (${src}:${warn.line}: ${warn.message})`;
    if (kind === 'routes' && m.routes && !m.routes.ipv4Active.length && !m.routes.netRoutes.length) return `${src} holds no IPv4 routes`;
    if (kind === 'endpoints' && (m.endpoints ?? []).some((e) => e.partial || e.fromTable)) return `${src} is cut: some endpoints were read from its table only`;
    return undefined;
  };
  c = {
    m,
    tc,
    unreliable,
    hedge(f, ...kinds) {
      const why = kinds.map(unreliable).filter(Boolean);
      if (!why.length || f.severity === 'info') return f;
      return { ...f, severity: 'warning', undecided: true, explanation: `${f.explanation} Cannot be sure: ${why.join('; ')}.` };
    },
    platform,
    facts,
    kubeProxy: facts ? facts.kubeProxy : (m.loadBalancers?.length ?? 0) > 0,
    podNetworks,
    nodeIp: tc.nodeIp,
    localPods,
    traceSource: <T,>(eps: T[], ep: (x: T) => HnsEndpoint = (x) => x as unknown as HnsEndpoint) => (m.ip ? eps.find((x) => tc.adapterOf.has(ep(x).id)) : undefined) ?? eps[0],
    networkOf,
    subnetOf,
    portOf: (ep) => tc.portOf.get(ep.id),
    policy: (p) => (p.policy && m.vfp ? m.vfp.getPolicy(p.name) : undefined),
    sections: (p) => (p.policy && m.vfp ? m.vfp.getPortSections(p.name) : undefined),
    rules: (p) => portRules(m).of(p),
    ruleIds: (p) => portRules(m).idsFor(p),
    ruleById: (id) => portRules(m).rule(id),
    ev,
    absent: (file, text) => ({ file, line: 0, text }),
    portEv: (port, remark) => {
      const src = port.policy?.src ?? port.src;
      const e = ev(src);
      const head = e.text && !e.text.toLowerCase().includes(port.name.toLowerCase()) ? `${e.text.replace(/:\s*$/, ':')} ${port.name}` : e.text || `port ${port.name}`;
      return { ...e, text: remark ? `${head} — ${remark}` : head };
    },
    fileExists: (re) => files.some((f) => re.test(f)),
  };
  contexts.set(m, c);
  return c;
}
