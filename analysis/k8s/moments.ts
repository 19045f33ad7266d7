// When the kubectl snapshot and the node's bundle were taken, as far as they say. A `kubectl get -o
// json` list carries no time of its own, but its objects do: each Node's Ready condition carries the
// kubelet's last heartbeat, and the kubelet posts node status at least every 5 minutes
// (nodeStatusReportFrequency, k8s.io/kubelet config/v1beta1 types.go), so the newest heartbeat puts the
// snapshot within about 5 minutes after it; without Nodes, the newest creation time is only a lower bound.
// The bundle: AKS's collect-windows-logs.ps1 names its files with the collection moment
// (`<yyyyMMdd-HHmmss>_services.csv`, `<ts>-hnsdiag-list.txt`; Azure/AgentBaker
// staging/cse/windows/debug/collect-windows-logs.ps1), on the node's clock (inferred UTC, as AKS nodes
// run); else the newest fully dated log line is a lower bound.
import type { NodeModel } from '../../parsers/model/types.ts';

/** A moment known to lie in [lo, hi] (ms since the epoch); `at` is the moment quoted. */
export interface Moment {
  at: number;
  lo: number;
  hi: number;
  /** How it was worked out, for the text: `the newest Node heartbeat (aks-nodepool1-…)`. */
  how: string;
}

export interface SnapshotMoments {
  /** A point estimate when set directly (tests, callers that know). */
  kubectl?: number;
  bundle?: number;
  /** The estimates with their bounds and how they were found. */
  kubectlMoment?: Moment;
  bundleMoment?: Moment;
}

/** More apart than this, backends may well have changed between the two (a rollout, a scale). */
export const SKEW_MS = 5 * 60_000;
/** The kubelet's node status report period, plus a minute for the API server to take it. */
const HEARTBEAT_MS = 6 * 60_000;

const iso = (x: number) => new Date(x).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

const STAMP = /(?:^|[\\/_-])(20\d\d)(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)(?=[_.-])/;

/** The moment the kubectl snapshot was taken, as far as its objects say. */
export function snapshotMoment(m: NodeModel): Moment | undefined {
  const snap = m.k8s;
  if (!snap) return undefined;
  let beat: { t: number; node: string } | undefined;
  for (const n of snap.nodes) {
    const t = n.heartbeat ? Date.parse(n.heartbeat) : NaN;
    if (Number.isFinite(t) && (!beat || t > beat.t)) beat = { t, node: n.name };
  }
  let newest: { t: number; what: string } | undefined;
  const see = (s: string | undefined, what: string) => {
    const t = s ? Date.parse(s) : NaN;
    if (Number.isFinite(t) && (!newest || t > newest.t)) newest = { t, what };
  };
  for (const p of snap.pods) see(p.createdAt, `Pod ${p.namespace}/${p.name}`);
  for (const s of snap.services) see(s.createdAt, `Service ${s.namespace}/${s.name}`);
  for (const p of snap.networkPolicies) see(p.createdAt, `NetworkPolicy ${p.namespace ? `${p.namespace}/` : ''}${p.name}`);
  if (beat && (!newest || newest.t <= beat.t + HEARTBEAT_MS)) {
    return { at: beat.t, lo: Math.max(beat.t, newest?.t ?? beat.t), hi: beat.t + HEARTBEAT_MS, how: `the newest Node heartbeat (${beat.node}); inferred: the kubelet reports at least every 5 minutes` };
  }
  if (newest) return { at: newest.t, lo: newest.t, hi: Infinity, how: `the newest creation time (${newest.what}); the snapshot was taken at or after it` };
  return undefined;
}

/** The moment the bundle was collected, as far as its file names or logs say. */
export function bundleMoment(m: NodeModel): Moment | undefined {
  for (const f of m.files) {
    const s = STAMP.exec(f.name);
    if (!s) continue;
    const [y, mo, d, h, mi, se] = s.slice(1, 7).map((x) => Number(x ?? NaN));
    const t = Date.UTC(y ?? NaN, (mo ?? NaN) - 1, d ?? NaN, h ?? NaN, mi ?? NaN, se ?? NaN);
    // The collector stamps its files as it starts; a collection takes minutes.
    if (Number.isFinite(t)) return { at: t, lo: t, hi: t + 30 * 60_000, how: `the time in the file name ${f.name}; inferred: the node's clock taken as UTC` };
  }
  let newest: { t: number; file: string } | undefined;
  for (const l of m.logs ?? []) {
    for (const e of l.events) {
      if (e.time?.precision !== 'full') continue;
      if (!newest || e.time.ms > newest.t) newest = { t: e.time.ms, file: l.file };
    }
  }
  if (newest) return { at: newest.t, lo: newest.t, hi: Infinity, how: `the newest log line (${newest.file}); the bundle was collected at or after it` };
  return undefined;
}

export function snapshotMoments(m: NodeModel): SnapshotMoments {
  return { kubectlMoment: snapshotMoment(m), bundleMoment: bundleMoment(m) };
}

const point = (t: number | undefined, how: string): Moment | undefined => (t === undefined ? undefined : { at: t, lo: t, hi: t, how });

/**
 * What a finding that compares the snapshot with the node must say about their moments: `hedge` when
 * they are known to be further apart than SKEW_MS (the finding becomes a warning); else "per the
 * snapshot of <time>" when the snapshot's time is known, or the sentence that the comparison assumes
 * they were taken at the same moment.
 */
export function skewNote(t: SnapshotMoments): { hedge: boolean; text: string } {
  const k = t.kubectlMoment ?? point(t.kubectl, '');
  const b = t.bundleMoment ?? point(t.bundle, '');
  if (k && b) {
    const apart = k.lo > b.hi ? k.lo - b.hi : b.lo > k.hi ? b.lo - k.hi : 0;
    if (apart > SKEW_MS) {
      const d = Math.round(Math.abs(k.at - b.at) / 60_000);
      const how = k.how ? ` (from ${k.how}; the bundle's from ${b.how})` : '';
      return { hedge: true, text: `The kubectl snapshot (${iso(k.at)}) and the node's bundle (${iso(b.at)}) were taken ${d} minutes apart${how}: the Service's backends may have changed in between, so this is only a warning; compare a snapshot and a bundle taken together.` };
    }
    if (!k.how) return { hedge: false, text: '' };
    return { hedge: false, text: `Per the snapshot of about ${iso(k.at)} (from ${k.how}); the bundle's moment (${iso(b.at)}, from ${b.how}) is not known to differ by more than 5 minutes.` };
  }
  if (k?.how) return { hedge: false, text: `Per the snapshot of about ${iso(k.at)} (from ${k.how}); the bundle says nothing of when it was collected, so both are taken as of the same moment.` };
  return { hedge: false, text: 'This compares the kubectl snapshot with the node as if both were taken at the same moment (hnsight cannot tell when the snapshot was taken); if they were not, the backends may have changed in between.' };
}
