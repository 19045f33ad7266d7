// The reachability matrix as the app receives it (contract reply of reachMatrix): the sources and
// destinations once each, and every walked cell by their indexes, so a node with 250 pods and 2,000
// Services answers in a reply of a few MB instead of repeating names and addresses in every cell.
import type { ReachCell, Endpoint, Source, ReachVerdict } from '../reach/index.ts';
import type { Proto } from '../walk/types.ts';

export type ReachEndKind = 'pod' | 'host' | 'service' | 'remote' | 'node' | 'outside';

export interface ReachEnd {
  ip: string;
  port?: number;
  proto?: Proto;
  /** Kubernetes name or role, as the analysis names it. */
  name?: string;
  kind: ReachEndKind;
  /** The Kubernetes namespace (a pod or Service named `namespace/name`). */
  namespace?: string;
  /** A destination chosen by an assumption, with the assumption. */
  inferred?: string;
  /** 6 for an IPv6 source or destination (a dual-stack node's other rows and columns); absent for IPv4. */
  family?: 6;
}

export interface ReachCellView {
  /** Index into sources. */
  s: number;
  /** Index into destinations. */
  d: number;
  verdict: ReachVerdict;
  /** The reply's verdict (null: no reply was walked, e.g. the packet never arrived). */
  reply: ReachVerdict | null;
  decidingRule: string | null;
  decidedAt: string;
  reason: string;
  /** Each backend's verdict when a Service's backends differ. */
  backends?: { dip: string; verdict: ReachVerdict; decidingRule: string | null }[];
  /** The findings on the example's path: key and title. */
  findings: { key: string; title: string; severity: 'error' | 'warning' | 'info' }[];
  /** The verdict rests on an inference (analysis/reach/outcome.ts `verdictInference`): the deciding step, in words. */
  verdictInferred?: string;
}

export interface ReachMatrixView {
  sources: ReachEnd[];
  destinations: ReachEnd[];
  cells: ReachCellView[];
  /** Limits and assumptions, in words for the user. */
  notes: string[];
}

const namespaceOf = (name: string | undefined): string | undefined => {
  const m = name ? /^([a-z0-9][a-z0-9-]*)\/[^/\s]+/.exec(name) : null;
  return m ? m[1] : undefined;
};

/** Classifies the analysis's default sources and destinations (matrix.ts names host, node, outside, remote pod subnets). */
export function reachEnds(sources: readonly Source[], destinations: readonly Endpoint[]): { sources: ReachEnd[]; destinations: ReachEnd[] } {
  const podIps = new Set(sources.filter((s) => s.name !== 'host').map((s) => s.ip));
  // An address with a colon is IPv6 (the analysis writes IPv4 dotted, IPv6 in RFC 5952 text).
  const six = (ip: string) => (ip.includes(':') ? { family: 6 as const } : {});
  const src: ReachEnd[] = sources.map((s) => ({ ip: s.ip, ...(s.name ? { name: s.name } : {}), kind: s.name === 'host' ? 'host' : 'pod', ...(namespaceOf(s.name) ? { namespace: namespaceOf(s.name) } : {}), ...six(s.ip) }));
  const dst: ReachEnd[] = destinations.map((d) => {
    const kind: ReachEndKind = d.name === 'node' ? 'node' : d.name === 'outside' ? 'outside' : d.remote || d.name?.startsWith('remote pod subnet') ? 'remote' : podIps.has(d.ip) ? 'pod' : 'service';
    const ns = kind === 'pod' || kind === 'service' ? namespaceOf(d.name) : undefined;
    return { ip: d.ip, ...(d.port !== undefined ? { port: d.port } : {}), proto: d.proto, ...(d.name ? { name: d.name } : {}), kind, ...(ns ? { namespace: ns } : {}), ...(d.inferred ? { inferred: d.inferred } : {}), ...six(d.ip) };
  });
  return { sources: src, destinations: dst };
}

const endKey = (ip: string, port: number | undefined, proto: string) => `${ip}|${port ?? ''}|${proto}`;

/**
 * A snapshot of a matrix being worked out (the app fills it progressively): the cells from index
 * `from` of the node's list (a client that has the first `from` asks for the rest), and whether walks
 * are still under way. A cell absent from every snapshot is not worked out (yet): never a verdict.
 */
export interface ReachSnapshot extends ReachMatrixView {
  from: number;
  /** Cells worked out in all. */
  count: number;
  /** Walks are under way: the first pass, or cells the user asked for. */
  running: boolean;
  /**
   * The sources and destinations are known. false: the node is still being read (a big node takes a
   * while): ask again at the next event of the reach step; nothing else in the snapshot means anything.
   */
  ready: boolean;
}

/** One cell of the analysis as the app receives it, `s` and `d` its source's and destination's indexes. */
export function cellView(c: ReachCell, s: number, d: number): ReachCellView {
  return {
    s,
    d,
    verdict: c.verdict,
    reply: c.reply?.verdict ?? null,
    decidingRule: c.decidingRule,
    decidedAt: c.decidedAt,
    reason: c.reason,
    ...(c.verdicts ? { backends: c.verdicts } : {}),
    findings: c.findings.map((f) => ({ key: f.key, title: f.title, severity: f.severity })),
    ...(c.verdictInferred !== undefined ? { verdictInferred: c.verdictInferred } : {}),
  };
}

/** Index of a destination by what a cell names (address, port unless a ping, protocol). */
export function destinationIndex(destinations: readonly Endpoint[]): (c: Pick<ReachCell, 'to' | 'port' | 'proto'>) => number | undefined {
  const di = new Map(destinations.map((d, i) => [endKey(d.ip, d.proto === 'icmp' ? undefined : d.port, d.proto), i]));
  return (c) => di.get(endKey(c.to, c.port, c.proto));
}

/** The compact reply from the analysis's cells. Cells of a source or destination not listed are left out. */
export function reachMatrixView(sources: readonly Source[], destinations: readonly Endpoint[], cells: readonly ReachCell[], notes: string[] = []): ReachMatrixView {
  const ends = reachEnds(sources, destinations);
  const si = new Map(sources.map((s, i) => [s.ip, i]));
  const di = destinationIndex(destinations);
  const out: ReachCellView[] = [];
  for (const c of cells) {
    const s = si.get(c.from);
    const d = di(c);
    if (s === undefined || d === undefined) continue;
    out.push(cellView(c, s, d));
  }
  return { ...ends, cells: out, notes };
}
