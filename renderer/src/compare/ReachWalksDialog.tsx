// Both walks of a reachability change side by side: its example packet walked in A (before) and in B
// (after), each with its verdict (qualified by the worst finding on its path, as the main walk view
// says it), the reply's, the findings on its path (that side's own checks, analysis/walk/
// findings-on-path.ts) and its hops — the path — with the hop that decided lit and the hops a finding
// concerns marked.
// Esc closes it (back to the list). When A is the node open in the window, its walk can be opened on
// the graph too.
import { useEffect, useState } from 'react';
import { GitCompare, X } from 'lucide-react';
import type { ReachChange } from '../../../analysis/reach/index.ts';
import type { WalkResult } from '../../../analysis/walk/types.ts';
import { changeFlow, changeSource, changeTarget } from '../../../analysis/view-models/reach-diff-view.ts';
import { Dialog } from '../components/Dialog.tsx';
import { api } from '../api/index.ts';
import { appStore, useApp } from '../store/app-store.ts';
import { endpointText } from '../walk/model.ts';
import { verdictText, verdictTone, worstSeverity, hopFindings } from '../walk/verdict.ts';
import { walkAgrees } from './walk-agrees.ts';
import { ReachWalkFindings } from './ReachWalkFindings.tsx';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

function Side({ jobId, change, side }: { jobId: string; change: ReachChange; side: 'a' | 'b' }) {
  const [walk, setWalk] = useState<WalkResult>();
  const [error, setError] = useState<string>();
  const flow = changeFlow(change, side);
  useEffect(() => {
    let live = true;
    api.walkCompared({ jobId, side, ...flow }).then(
      (w) => live && setWalk(w),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
    // The flow is derived from the change and the side.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId, change, side]);
  const expected = side === 'a' ? change.before : change.after;
  return (
    <div className={`reach-walk-side ${side}`} data-testid={`reach-walk-${side}`} data-verdict={walk?.verdict} aria-label={side === 'a' ? 'A · before' : 'B · after'}>
      <div className="reach-walk-head">
        <span className={`diff-side-tag ${side}`}>{side === 'a' ? 'A · before' : 'B · after'}</span>
        <span className="mono small-text">
          {endpointText(flow.srcIp)} → {endpointText(flow.dstIp, flow.dstPort)} {flow.proto.toUpperCase()}
        </span>
      </div>
      {error && (
        <div className="note error" role="alert">
          <span>{error}</span>
        </div>
      )}
      {!walk && !error && <div className="muted">Walking…</div>}
      {walk && (
        <>
          <div className={`reach-walk-verdict v-${walk.verdict} tone-${verdictTone(walk)}`} data-testid={`reach-walk-verdict-${side}`} data-tone={verdictTone(walk)}>
            <strong>{verdictText(walk)}</strong>
            {walk.reply && <span className="muted"> · reply {walk.reply.verdict}</span>}
            <div className="small-text">{walk.reason}</div>
            {!walkAgrees(expected.verdict, walk) && <div className="note warning small-text">This packet's walk does not give the class's outcome ({expected.verdict}): a defect of hnsight, please report it.</div>}
          </div>
          <ReachWalkFindings walk={walk} side={side} />
          <ol className="reach-walk-hops" aria-label="The path, hop by hop">
            {walk.hops.map((h, i) => {
              const fs = hopFindings(walk, i);
              const worst = worstSeverity(fs);
              return (
                <li key={i} className={`reach-walk-hop ${i === walk.deciding ? 'lit' : ''}`} aria-current={i === walk.deciding ? 'step' : undefined} data-testid={i === walk.deciding ? `reach-walk-deciding-${side}` : undefined}>
                  <span className="reach-walk-at">{h.at}</span>
                  {h.layer && (
                    <span className="mono muted small-text">
                      {h.direction ? `${h.direction} ` : ''}
                      {h.layer}
                      {h.group ? ` › ${h.group}` : ''}
                    </span>
                  )}
                  {h.rule && <span className="mono small-text">rule {h.rule}</span>}
                  <span className="badge info">{h.action}</span>
                  {i === walk.deciding && <span className="badge warning">decided here</span>}
                  {worst && (
                    <span className={`badge ${worst}`} title={fs.map((f) => f.title).join('\n')} data-testid={`reach-walk-hop-finding-${side}`}>
                      {fs.length} finding{fs.length > 1 ? 's' : ''}
                    </span>
                  )}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}

export function ReachWalksDialog({ jobId, change, pathA, onClose }: { jobId: string; change: ReachChange; pathA: string; onClose(): void }) {
  const openHere = useApp((s) => s.bundle?.location === pathA);
  const showOnGraph = () => {
    const s = appStore.getState();
    onClose();
    s.closeCompare();
    s.setPanel('walk');
    void s.runWalk(changeFlow(change, 'a'), { focus: 'deciding' });
  };
  return (
    <Dialog label="Both walks of a reachability change" onClose={onClose} className="reach-walks-dialog" testId="reach-walks">
      <div className="dialog-head">
        <GitCompare size={16} aria-hidden />
        <h2>
          {changeSource(change)} → {changeTarget(change)}
        </h2>
        {openHere && (
          <button type="button" className="btn small" onClick={showOnGraph} data-testid="reach-walk-on-graph">
            Open A's walk on the graph
          </button>
        )}
        <button type="button" className="btn ghost small icon" onClick={onClose} aria-label="Close">
          <X size={15} aria-hidden />
        </button>
      </div>
      <div className="reach-walks scroll">
        <Side jobId={jobId} change={change} side="a" />
        <Side jobId={jobId} change={change} side="b" />
      </div>
    </Dialog>
  );
}
