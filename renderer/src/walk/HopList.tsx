// The hops of a walk to step through: each with its place, rule, action and rewrite, its marks (not
// modelled, ambiguous, inferred, overridden, decided by flow state) and the findings about it; the
// current one opened — the rule in context (the rules above it that did not match and why, the
// conditions that made it match), the packet before and after, the load balancer's other backends
// (request only), the evidence line and the hop's notes (request only).
import { memo, useEffect, useMemo, useRef } from 'react';
import type { WalkHop } from '../../../analysis/walk/types.ts';
import { useApp } from '../store/app-store.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { dipOf, endpointText, packetDiff } from './model.ts';
import { NoteBadge, NotesFor } from '../notes/NotesFor.tsx';
import { hopNoteCounts, hopTarget } from '../notes/model.ts';
import { conditionText, hopFindings, hopMarks, worstSeverity, type HopView, type WalkView } from './verdict.ts';
import { PathFindingList } from './PathFindingList.tsx';

function RuleContext({ h }: { h: HopView }) {
  if (!h.rule && !h.skipped?.length) return null;
  return (
    <div className="rule-context" data-testid="rule-context">
      {h.layer && (
        <div className="rc-path mono">
          {h.port && <span className="muted">{h.direction ?? ''} </span>}
          {h.layer}
          {h.group && <> › {h.group}</>}
        </div>
      )}
      <ol className="rc-rules">
        {(h.skipped ?? []).map((s, i) => (
          <li key={i} className="rc-rule skipped">
            <span className="rc-prio mono">{s.priority ?? '–'}</span>
            <span className="rc-name mono" title={s.rule}>
              {s.rule}
            </span>
            <span className="rc-why">✕ {s.why}</span>
            <SourceLink file={s.src.file} line={s.src.line} />
          </li>
        ))}
        {h.rule && (
          <li className="rc-rule matched" data-testid="matched-rule">
            <span className="rc-prio mono">{h.priority ?? '–'}</span>
            <span className="rc-name mono" title={h.rule}>
              {h.rule}
            </span>
            <span className="rc-why">
              ✓ matched{h.ruleType && <span className="badge info">{h.ruleType}</span>}
            </span>
            {h.evidence && <SourceLink file={h.evidence.file} line={h.evidence.line} />}
            <MatchedBecause h={h} />
          </li>
        )}
      </ol>
    </div>
  );
}

/** Why the rule matched: each of its conditions against the packet's value. */
function MatchedBecause({ h }: { h: HopView }) {
  const conds = h.matchedBecause;
  if (!conds) return null;
  return (
    <ul className="rc-conds" data-testid="matched-because" aria-label="Why this rule matched">
      {!conds.length && <li className="rc-cond muted">the rule has no condition: it matches every packet</li>}
      {conds.map((c, i) => (
        <li key={i} className={`rc-cond mono ${c.result}`} data-testid="matched-condition" title={c.result === 'unknown' ? 'hnsight cannot evaluate this condition: the match is an inference' : undefined}>
          ✓ {conditionText(c)}
          {c.result === 'unknown' && <span className="badge warning">not evaluable: assumed</span>}
        </li>
      ))}
    </ul>
  );
}

function PacketTable({ h }: { h: HopView }) {
  const rows = packetDiff(h.before, h.after);
  if (!rows.length) return null;
  const changed = rows.some((r) => r.changed);
  return (
    <table className="packet-table" data-testid="packet-table">
      <thead>
        <tr>
          <th />
          {h.before && <th>before</th>}
          <th>{h.before ? 'after' : 'packet'}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={r.changed ? 'changed' : ''}>
            <th scope="row">{r.label}</th>
            {h.before && <td className="mono">{r.before || '–'}</td>}
            <td className="mono">{r.after || '–'}</td>
          </tr>
        ))}
      </tbody>
      {h.before && !changed && (
        <caption className="muted">unchanged</caption>
      )}
    </table>
  );
}

function HopDetail({ h, index, t }: { h: HopView; index: number; t: WalkView }) {
  const rerun = useApp((s) => s.rerunWithDip);
  const loading = useApp((s) => s.walkLoading);
  const side = useApp((s) => s.walkSide);
  const chosen = h.rewrite?.dstIp;
  const flow = useApp((s) => s.walkFlow);
  const findings = hopFindings(t, index);
  return (
    <div className="hop-detail" data-testid="hop-detail">
      <PathFindingList findings={findings} testId="hop-findings" />
      {h.unmodelled && (
        <div className="hop-flag warning" data-testid="hop-unmodelled">
          <strong>not modelled:</strong> {h.unmodelled}. The walk went on with the packet unchanged; a real node may do otherwise.
        </div>
      )}
      {h.ambiguous && (
        <div className="hop-flag warning" data-testid="hop-ambiguous">
          <strong>ambiguous:</strong> two rules of equal priority match this packet ({h.ambiguous}). Which one a real node applies is undefined; the walk followed the order printed in the bundle.
        </div>
      )}
      {h.superseded && (
        <div className="hop-flag" data-testid="hop-superseded">
          <strong>overridden:</strong> this rule matched, but a later group of the same layer matched too, and VFP applies the last group’s match.
        </div>
      )}
      {h.flow && (
        <div className="hop-flag" data-testid="hop-flow">
          <strong>flow state:</strong> the layer let this packet through by the flow the request created, not by one of its rules.
        </div>
      )}
      {h.inferred && (
        <div className="hop-inferred" data-testid="hop-inferred">
          <strong>inferred:</strong> {(h.note ?? 'the bundle does not state this; the walk assumed it').replace('(choose another with --dip)', '(choose another below)')}
        </div>
      )}
      {!h.inferred && h.note && <div className="hop-note">{h.note}</div>}
      <RuleContext h={h} />
      {side === 'request' && !!h.alternatives?.length && (
        <div className="dip-chooser" data-testid="dip-chooser">
          <span className="dip-label">Backend (DIP)</span>
          <div className="dip-list">
            {chosen && (
              <button type="button" className="dip on" aria-pressed disabled>
                <span className="mono">
                  {chosen}
                  {h.rewrite?.dstPort !== undefined ? `:${h.rewrite.dstPort}` : h.after?.dstPort !== undefined ? `:${h.after.dstPort}` : ''}
                </span>{' '}
                taken
              </button>
            )}
            {h.alternatives.map((a) => (
              <button key={a} type="button" className="dip" disabled={loading} onClick={() => void rerun(dipOf(a))} title={`Walk again with the load balancer picking ${a}`} data-testid="dip-alt">
                <span className="mono">{a}</span>
              </button>
            ))}
          </div>
        </div>
      )}
      <PacketTable h={h} />
      {h.evidence ? (
        <div className="hop-evidence">
          evidence <SourceLink file={h.evidence.file} line={h.evidence.line} />
        </div>
      ) : (
        <div className="hop-evidence muted">no line of the bundle states this hop</div>
      )}
      {flow && side === 'request' && <NotesFor target={hopTarget(flow, index)} what={`hop ${index + 1}`} className="hop-notes" />}
    </div>
  );
}

function rewriteSummary(h: WalkHop): string {
  const r = h.rewrite;
  if (!r) return '';
  const parts: string[] = [];
  if (r.dstIp || r.dstPort !== undefined) parts.push(`dst → ${endpointText(r.dstIp ?? h.before?.dstIp ?? '', r.dstPort)}`);
  if (r.srcIp || r.srcPort !== undefined) parts.push(`src → ${endpointText(r.srcIp ?? h.before?.srcIp ?? '', r.srcPort)}`);
  if (r.srcMac) parts.push(`src MAC → ${r.srcMac}`);
  if (r.dstMac) parts.push(`dst MAC → ${r.dstMac}`);
  if (r.encap) parts.push(`${r.encap.type} → ${r.encap.dstIp}`);
  return parts.join(', ');
}

interface HopRowProps {
  h: HopView;
  index: number;
  t: WalkView;
  current: boolean;
  notes: number;
  onOpen(index: number): void;
}

/**
 * One hop: its head always, its details only while it is the current one. Memoized: a step through
 * the walk re-renders the hop left and the hop reached, not every row of the list.
 */
const HopRow = memo(function HopRow({ h, index: i, t, current: cur, notes, onOpen }: HopRowProps) {
  const rw = rewriteSummary(h);
  const fs = hopFindings(t, i);
  const worst = worstSeverity(fs);
  return (
    <li className={`hop kind-${h.kind} ${cur ? 'current' : ''} ${i === t.deciding ? 'deciding' : ''} ${h.inferred ? 'inferred' : ''} ${h.superseded ? 'superseded' : ''}`} data-testid="hop" aria-current={cur ? 'step' : undefined}>
      <button type="button" className="hop-head" onClick={() => onOpen(i)} aria-expanded={cur}>
        <span className="hop-num">{i + 1}</span>
        <span className="hop-main">
          <span className="hop-at">
            {h.at}
            {i === t.deciding && <span className={`badge ${t.verdict === 'dropped' ? 'error' : t.verdict === 'unknown' ? 'warning' : 'ok'}`}>deciding</span>}
            {hopMarks(h).map((m) => (
              <span key={m.key} className={`badge ${m.tone}`} title={m.title} data-testid={`hop-mark-${m.key}`}>
                {m.label}
              </span>
            ))}
            {worst && (
              <span className={`badge ${worst}`} title={fs.map((f) => f.title).join('\n')} data-testid="hop-finding-badge">
                {fs.length === 1 ? 'finding' : `${fs.length} findings`}
              </span>
            )}
            <NoteBadge count={notes} />
          </span>
          {h.rule && (
            <span className="hop-rule mono" title={`${h.layer ?? ''} / ${h.group ?? ''} / ${h.rule}`}>
              {h.rule}
            </span>
          )}
          <span className="hop-action">
            <span className={`act act-${h.kind === 'drop' || /block|drop/i.test(h.action) ? 'drop' : rw ? 'rewrite' : 'pass'}`}>{h.action}</span>
            {rw && <span className="mono hop-rw">{rw}</span>}
          </span>
        </span>
      </button>
      {cur && <HopDetail h={h} index={i} t={t} />}
    </li>
  );
});

export function HopList({ t }: { t: WalkView }) {
  const hop = useApp((s) => s.hop);
  const setHop = useApp((s) => s.setHop);
  const listRef = useRef<HTMLOListElement>(null);
  const flow = useApp((s) => s.walkFlow);
  const doc = useApp((s) => s.notes);
  const side = useApp((s) => s.walkSide);
  // Notes are on the request's hops: the reply's hops show none.
  const counts = useMemo(() => (flow && side === 'request' ? hopNoteCounts(doc, flow) : new Map<number, number>()), [doc, flow, side]);
  // A new walk keeps its verdict's headline in view (the panel scrolls to it, not to the first hop
  // below it); stepping brings the current hop into view.
  const shownWalk = useRef<WalkView | undefined>(undefined);
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (shownWalk.current !== t) {
      shownWalk.current = t;
      const panel = list.closest<HTMLElement>('.walk-panel');
      const verdict = panel?.querySelector<HTMLElement>('[data-testid="verdict"]');
      if (panel && verdict) {
        const p = panel.getBoundingClientRect();
        const v = verdict.getBoundingClientRect();
        // Wholly in view: stay; else its top (the headline) at the panel's top.
        if (v.top < p.top || v.bottom > p.bottom) panel.scrollTop += v.top - p.top - 8;
      }
      return;
    }
    list.querySelector<HTMLElement>('.hop.current')?.scrollIntoView({ block: 'nearest' });
  }, [hop, t]);
  return (
    <ol className="hop-list" ref={listRef} data-testid="hop-list">
      {t.hops.map((h, i) => (
        <HopRow key={i} h={h} index={i} t={t} current={i === hop} notes={counts.get(i) ?? 0} onOpen={setHop} />
      ))}
    </ol>
  );
}
