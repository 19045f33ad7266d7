// The walk's verdict and everything that qualifies it: the worst finding on the path ("Delivered, but
// …", in that finding's colour), a verdict that depends on a rule hnsight does not model (which one)
// or on inferred steps (which), the caveats with their sources, the findings on no particular hop,
// the reply as the request's rules make it visible and the button that walks it.
import { useMemo } from 'react';
import { AlertTriangle, Ban, CheckCircle2, ClipboardCopy, CornerDownLeft, FilePlus2, FileCheck2, HelpCircle, Send } from 'lucide-react';
import type { Verdict } from '../../../analysis/walk/types.ts';
import type { FindingView } from '../../../analysis/findings/types.ts';
import { formatWalk, describePacket } from '../../../analysis/walk/format.ts';
import { useApp } from '../store/app-store.ts';
import { copyText } from '../lib/copy-text.ts';
import { explainingFindings, flowText } from './model.ts';
import { sameFlow, cleanFlow } from '../notes/model.ts';
import { caveatKindWords, caveatSource, inferredHops, unmodelledHops, verdictFindings, verdictParts, verdictText, verdictTone, type HopRef, type WalkView } from './verdict.ts';
import { PathFindingList } from './PathFindingList.tsx';

const ICON: Record<Verdict, typeof Send> = { delivered: CheckCircle2, forwarded: Send, dropped: Ban, unknown: HelpCircle };

function HopLinks({ refs, testId }: { refs: HopRef[]; testId: string }) {
  const setHop = useApp((s) => s.setHop);
  return (
    <>
      {refs.map((r, i) => (
        <span key={r.hop}>
          {i > 0 && ', '}
          <button type="button" className="link" onClick={() => setHop(r.hop)} data-testid={testId} title={`Show hop ${r.hop + 1}`}>
            hop {r.hop + 1}
            {r.label ? `: ${r.label}` : ''}
          </button>
        </span>
      ))}
    </>
  );
}

/** Beside the verdict: what it depends on that hnsight does not model, and which steps are inferred. */
function VerdictFlags({ t }: { t: WalkView }) {
  const unmodelled = unmodelledHops(t);
  const inferred = inferredHops(t);
  if (!t.dependsOnUnmodelled && !unmodelled.length && !t.inferred && !inferred.length) return null;
  return (
    <div className="verdict-flags">
      {(t.dependsOnUnmodelled || unmodelled.length > 0) && (
        <div className="verdict-flag warning" data-testid="verdict-unmodelled">
          <AlertTriangle size={13} aria-hidden />
          <span>
            <strong>Depends on a rule hnsight does not model</strong>
            {unmodelled.length > 0 && (
              <>
                {' — '}
                <HopLinks refs={unmodelled} testId="unmodelled-hop" />
              </>
            )}
            . A real node may do something else there.
          </span>
        </div>
      )}
      {(t.inferred || inferred.length > 0) && (
        <div className="verdict-flag" data-testid="verdict-inferred">
          <HelpCircle size={13} aria-hidden />
          <span>
            <strong>Inferred</strong>: the bundle does not state{' '}
            {inferred.length ? (
              <>
                {inferred.length === 1 ? 'one step' : `${inferred.length} steps`} (
                <HopLinks refs={inferred.map((r) => ({ hop: r.hop, label: '' }))} testId="inferred-hop" />
                ); the walk assumed {inferred.length === 1 ? 'it' : 'them'}.
              </>
            ) : (
              <>every step; some were assumed.</>
            )}
          </span>
        </div>
      )}
    </div>
  );
}

function Caveats({ t }: { t: WalkView }) {
  const setHop = useApp((s) => s.setHop);
  const list = t.caveats ?? [];
  if (!list.length) return null;
  return (
    <ul className="walk-caveats" data-testid="walk-caveats" aria-label="What to know about this verdict">
      {list.map((c, i) => {
        const src = caveatSource(c.source);
        return (
          <li key={i} className={`walk-caveat kind-${c.kind}`} data-testid="walk-caveat" data-kind={c.kind}>
            <span className="badge warning caveat-kind">{caveatKindWords(c.kind)}</span>
            <span className="caveat-text">
              {c.text}
              {c.hop !== undefined && t.hops[c.hop] && (
                <>
                  {' '}
                  <button type="button" className="link" onClick={() => setHop(c.hop!)}>
                    (hop {c.hop + 1})
                  </button>
                </>
              )}
              {src && (
                <span className="caveat-source muted">
                  {' '}
                  source:{' '}
                  {src.url ? (
                    <a href={src.url} target="_blank" rel="noreferrer" title={c.source} data-testid="caveat-source">
                      {src.text}
                    </a>
                  ) : (
                    <span title={c.source}>{src.text}</span>
                  )}
                </span>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The chips under the verdict: findings-panel entries on the path's hops, worst first, each once. */
function chipFindings(t: WalkView, known: readonly FindingView[]): { key: string; title: string; severity: 'error' | 'warning' | 'info'; hop?: number }[] {
  if (!t.findings) return explainingFindings(t, known).slice(0, 3);
  const inPanel = new Set(known.map((f) => f.key));
  const seen = new Set<string>();
  return t.findings
    .filter((f) => f.hop !== undefined && t.hops[f.hop] && f.severity !== 'info' && inPanel.has(f.key))
    .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
    .filter((f) => !seen.has(f.key) && !!seen.add(f.key))
    .slice(0, 4);
}

export function VerdictBanner({ t }: { t: WalkView }) {
  const findings = useApp((s) => s.findings);
  const setHop = useApp((s) => s.setHop);
  const showFinding = useApp((s) => s.showFinding);
  const toast = useApp((s) => s.toast);
  const side = useApp((s) => s.walkSide);
  const walkTheReply = useApp((s) => s.walkTheReply);
  const replyLoading = useApp((s) => s.replyLoading);
  const Icon = t.verdictCaveat ? AlertTriangle : ICON[t.verdict];
  // The findings panel's entries behind this verdict: the errors and warnings on the path's hops (each
  // is also shown on its hop); without findings joined to the walk, those that explain a drop are
  // guessed from the deciding hop.
  const explain = useMemo(() => chipFindings(t, findings ?? []), [t, findings]);
  // "Walk this packet" from a finding: the verdict names the finding it was walked for.
  const activeFinding = useApp((s) => s.activeFinding);
  const walkFlowNow = useApp((s) => s.walkFlow);
  const origin = useMemo(() => {
    const f = activeFinding ? findings?.find((x) => x.key === activeFinding) : undefined;
    return f?.trace && walkFlowNow && sameFlow(cleanFlow(f.trace), cleanFlow(walkFlowNow)) && !explain.some((e) => e.key === f.key) ? f : undefined;
  }, [activeFinding, findings, walkFlowNow, explain]);
  const onPath = verdictFindings(t);
  const d = t.hops[t.deciding];
  const eg = t.egress;
  const flow = useApp((s) => s.walkFlow);
  const traces = useApp((s) => s.notes?.traces);
  const addWalk = useApp((s) => s.addWalkToReport);
  const removeWalk = useApp((s) => s.removeWalkFromReport);
  const inReport = !!flow && !!traces?.some((f) => sameFlow(f, cleanFlow(flow)));
  const egress = [eg.nextHop && `next hop ${eg.nextHop}`, eg.interface && `interface ${eg.interface}`, eg.encapDst && `tunnel endpoint ${eg.encapDst}`].filter(Boolean);
  const canReply = side === 'request' && (t.verdict === 'delivered' || t.verdict === 'forwarded');
  const tone = verdictTone(t);
  const parts = verdictParts(t);
  return (
    <div className={`verdict verdict-${t.verdict} tone-${tone}`} role="status" tabIndex={-1} data-testid="verdict" data-verdict={t.verdict} data-tone={tone} data-flow={flowText(t.flow)}>
      <div className="verdict-head">
        <Icon size={18} aria-hidden className="verdict-icon" />
        <span className="verdict-text" data-testid="verdict-text" aria-label={verdictText(t)}>
          <strong className="verdict-word">{parts.word}</strong>
          {parts.rest && <span className="verdict-but">{parts.rest}</span>}
        </span>
        <span className="verdict-actions">
          {flow && traces && side === 'request' && (
            <button
              type="button"
              className={`btn small ${inReport ? 'in-report' : ''}`}
              onClick={() => (inReport ? removeWalk(flow) : addWalk(flow))}
              aria-pressed={inReport}
              title={inReport ? 'This walk is in the report; click to take it out' : 'Add this walk to the report (Export…)'}
              data-testid="walk-add-report"
            >
              {inReport ? <FileCheck2 size={13} aria-hidden /> : <FilePlus2 size={13} aria-hidden />} {inReport ? 'In the report' : 'Add to report'}
            </button>
          )}
          <button
            type="button"
            className="btn small ghost verdict-copy"
            onClick={async () => {
              if (await copyText(formatWalk(t))) toast('success', 'The walk was copied as text.');
              else toast('error', 'The clipboard refused the text.');
            }}
            data-testid="walk-copy"
            title="Copy the walk as text (like hnsight trace)"
          >
            <ClipboardCopy size={13} aria-hidden /> Copy as text
          </button>
        </span>
      </div>
      <VerdictFlags t={t} />
      <div className="verdict-reason">{t.reason}</div>
      {egress.length > 0 && <div className="verdict-line mono">{egress.join(' · ')}</div>}
      <div className="verdict-line mono muted">final {describePacket(t.final)}</div>
      {t.returnPath && (
        <div className="verdict-line mono muted" data-testid="walk-reply" title={[...t.returnPath.steps.map((s) => `${s.what} (${s.rule ?? `hop ${s.hop + 1}`})`), ...t.returnPath.notes].join('\n')}>
          reply {describePacket(t.returnPath.sent)} ⇒ arrives as {describePacket(t.returnPath.received)}
          {t.returnPath.steps.some((s) => !s.stateful) && <span className="badge warning">not translated back</span>}
        </div>
      )}
      {d && (
        <div className="verdict-line">
          decided at{' '}
          <button type="button" className="link" onClick={() => setHop(t.deciding)} data-testid="goto-deciding">
            hop {t.deciding + 1}: {d.rule ?? d.at}
          </button>
        </div>
      )}
      {canReply && (
        <div className="verdict-line">
          <button type="button" className="btn small" onClick={() => void walkTheReply()} disabled={replyLoading} data-testid="walk-the-reply" title="Walk the answer back through the node's rules and flow state, hop by hop">
            {replyLoading ? <span className="spinner" aria-hidden /> : <CornerDownLeft size={13} aria-hidden />} Walk the reply
          </button>
        </div>
      )}
      <Caveats t={t} />
      <PathFindingList findings={onPath} testId="verdict-path-findings" />
      {origin && side === 'request' && (
        <div className="verdict-findings" data-testid="verdict-origin">
          <span>walked for the finding</span>
          <button type="button" className={`finding-chip ${origin.severity}`} onClick={() => showFinding(origin.key)} title={`${origin.title} — open it in the findings panel`}>
            {origin.title}
          </button>
        </div>
      )}
      {explain.length > 0 && (
        <div className="verdict-findings">
          <span>{t.verdict === 'dropped' || t.verdict === 'unknown' ? 'explained by' : 'findings on the path'}</span>
          {explain.map((f) => (
            <button key={f.key} type="button" className={`finding-chip ${f.severity}`} onClick={() => showFinding(f.key)} title={`${f.title} — open it in the findings panel`} data-testid="verdict-finding">
              {f.hop !== undefined && <span className="chip-hop">hop {f.hop + 1}</span>}
              {f.title}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
