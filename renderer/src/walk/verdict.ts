// What the walk panel says beside and under a verdict: the verdict in words with the worst finding on
// the path ("Delivered, but …"), the colour it is shown in, what it depends on (a rule hnsight does
// not model, steps that are inferences), the caveats with their sources, and the findings on the
// path split between the hops they concern and the verdict. Pure, unit-tested.
import type { MatchedCondition, Verdict, WalkCaveat, WalkFinding, WalkHop, WalkResult } from '../../../analysis/walk/types.ts';
import { caveatClause } from '../../../analysis/walk/format.ts';

/**
 * A finding on the walk's path (analysis/walk/findings-on-path.ts): a check's finding about an object
 * or rule the packet crossed (`key` is its findings-panel key) or what the walk itself saw
 * (`walk:<id>#n`, no panel entry).
 */
export type PathFinding = WalkFinding;
export type { MatchedCondition };
/** A walk as the panel reads it (the engine's result with the findings its caller joined). */
export type WalkView = WalkResult;
export type HopView = WalkHop;

const WORD: Record<Verdict, string> = { delivered: 'Delivered', forwarded: 'Forwarded', dropped: 'Dropped', unknown: 'Unknown' };

export type Tone = 'ok' | 'info' | 'warning' | 'error';

const BASE_TONE: Record<Verdict, Tone> = { delivered: 'ok', forwarded: 'info', dropped: 'error', unknown: 'warning' };

/**
 * The verdict in words: "Delivered", or with the worst finding on the path "Delivered, but <text>"
 * ("Dropped, and <text>" for a walk that did not get through). The verdict stays what the rules say.
 */
export function verdictText(t: Pick<WalkView, 'verdict' | 'verdictCaveat'>): string {
  const { word, rest } = verdictParts(t);
  return `${word}${rest}`;
}

/** The verdict's word and what the caveat adds to it (", but …"), for showing them apart. */
export function verdictParts(t: Pick<WalkView, 'verdict' | 'verdictCaveat'>): { word: string; rest: string } {
  const word = WORD[t.verdict];
  return { word, rest: t.verdictCaveat ? `, ${caveatClause(t)}` : '' };
}

/**
 * The colour of the verdict: the finding's severity when one qualifies it; a warning when the verdict
 * depends on a rule hnsight does not model or carries a caveat (a ping whose answer cannot come back,
 * a black-holed backend, ambiguous rules); otherwise the verdict's own. A packet that got through is
 * never shown in its plain colour while something on its path says otherwise.
 */
export function verdictTone(t: Pick<WalkView, 'verdict' | 'verdictCaveat' | 'dependsOnUnmodelled' | 'caveats'>): Tone {
  const base = BASE_TONE[t.verdict];
  if (t.verdictCaveat) return t.verdictCaveat.severity === 'error' || base === 'error' ? 'error' : 'warning';
  if ((t.dependsOnUnmodelled || !!t.caveats?.length) && (base === 'ok' || base === 'info')) return 'warning';
  return base;
}

export interface HopRef {
  hop: number;
  label: string;
}

const hopName = (h: WalkHop) => h.rule ?? h.at;

/** The hops whose effect hnsight does not model (what `dependsOnUnmodelled` depends on). */
export function unmodelledHops(t: Pick<WalkResult, 'hops'>): (HopRef & { reason: string })[] {
  return t.hops.flatMap((h, i) => (h.unmodelled ? [{ hop: i, label: hopName(h), reason: h.unmodelled }] : []));
}

/** The hops that are inferences rather than read from the bundle. */
export function inferredHops(t: Pick<WalkResult, 'hops'>): HopRef[] {
  return t.hops.flatMap((h, i) => (h.inferred ? [{ hop: i, label: hopName(h) }] : []));
}

const CAVEAT_WORDS: Record<WalkCaveat['kind'], string> = {
  unmodelled: 'not modelled',
  ambiguous: 'ambiguous rules',
  icmp: 'ICMP',
  'stateless-rewrite': 'no flow state',
  'black-hole': 'black hole',
  'reply-mismatch': 'reply does not match',
  'no-return': 'no way back',
  limitation: 'Windows limitation',
};

export function caveatKindWords(kind: WalkCaveat['kind']): string {
  return CAVEAT_WORDS[kind] ?? kind;
}

/** A caveat's source: a link when it starts with an https URL (the rest is the quote), else words. */
export function caveatSource(source: string | undefined): { url?: string; text: string } | undefined {
  if (!source) return undefined;
  const m = /^(https:\/\/\S+?)(?:\s+(.*))?$/.exec(source.trim());
  if (!m) return { text: source };
  const host = (() => {
    try {
      return new URL(m[1]).hostname;
    } catch {
      return m[1];
    }
  })();
  return { url: m[1], text: m[2] ? `${host} ${m[2]}` : host };
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** The findings on one hop, worst first. */
export function hopFindings(t: Pick<WalkView, 'findings'>, hop: number): PathFinding[] {
  return (t.findings ?? []).filter((f) => f.hop === hop).sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}

/** The findings the verdict lists itself: those on no hop (or on a hop the walk does not have), worst first. */
export function verdictFindings(t: Pick<WalkView, 'findings' | 'hops'>): PathFinding[] {
  return (t.findings ?? []).filter((f) => f.hop === undefined || !t.hops[f.hop]).sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}

/** The worst severity among a hop's findings, for its badge. */
export function worstSeverity(list: readonly PathFinding[]): PathFinding['severity'] | undefined {
  return [...list].sort((a, b) => RANK[a.severity] - RANK[b.severity])[0]?.severity;
}

/** One condition of the matched rule against the packet: `destination IP 8.8.8.8 ∈ 0.0.0.0-255.255.255.255`. */
export function conditionText(c: MatchedCondition): string {
  return c.result === 'match' ? `${c.field} ${c.value} ∈ ${c.condition}` : `${c.field} ${c.value} vs ${c.condition}`;
}

/** The marks a hop carries in the list, in the order they are shown. */
export function hopMarks(h: WalkHop): { key: 'unmodelled' | 'ambiguous' | 'inferred' | 'superseded' | 'flow'; label: string; tone: Tone; title: string }[] {
  const out: ReturnType<typeof hopMarks> = [];
  if (h.unmodelled) out.push({ key: 'unmodelled', label: 'not modelled', tone: 'warning', title: `hnsight does not model what this rule does: ${h.unmodelled}` });
  if (h.ambiguous) out.push({ key: 'ambiguous', label: 'ambiguous', tone: 'warning', title: `Two rules of equal priority matched (${h.ambiguous}): which one a real node applies is undefined` });
  if (h.inferred) out.push({ key: 'inferred', label: 'inferred', tone: 'warning', title: h.note ?? 'the bundle does not state this; the walk assumed it' });
  if (h.superseded) out.push({ key: 'superseded', label: 'overridden', tone: 'info', title: 'This rule matched, but a later group of the same layer matched too and VFP applies the last group’s match' });
  if (h.flow) out.push({ key: 'flow', label: 'flow state', tone: 'info', title: 'Let through by the flow state the request created, not by a rule' });
  return out;
}
