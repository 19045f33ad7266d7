// The packet walkthrough beside the graph: the form and presets (WalkForm), the verdict with all that
// qualifies it (VerdictBanner), and the hops to step through with ←/→ (HopList). "Walk the reply"
// shows the answer as a walk of its own — its hops lit on the graph like the request's — with a way
// back to the request.
import { ArrowLeft, ArrowRight, Crosshair, Sparkles, Undo2, X } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import { describePacket } from '../../../analysis/walk/format.ts';
import { sameFlow } from '../notes/model.ts';
import { WalkForm, type PresetView } from './WalkForm.tsx';
import { VerdictBanner } from './VerdictBanner.tsx';
import { HopList } from './HopList.tsx';
import type { WalkView } from './verdict.ts';

/** Which preset the shown walk came from, and why it was picked. */
function PresetWhy() {
  const flow = useApp((s) => s.walkFlow);
  const presets = useApp((s) => s.presets) as PresetView[] | undefined;
  const p = flow && presets?.find((x) => sameFlow(x.flow, flow));
  if (!p?.why) return null;
  return (
    <div className="preset-why muted" data-testid="preset-why">
      <Sparkles size={12} aria-hidden /> {p.why}
    </div>
  );
}

function ReplyBar({ request }: { request: WalkView }) {
  const showRequest = useApp((s) => s.showRequest);
  return (
    <div className="reply-bar" data-testid="reply-bar">
      <span>
        <strong>The reply</strong> <span className="mono muted">{describePacket(request.reply?.flow ?? request.final)}</span>
      </span>
      <button type="button" className="btn small" onClick={showRequest} data-testid="walk-back-to-request" title="Back to the request's walk">
        <Undo2 size={13} aria-hidden /> Back to the request
      </button>
    </div>
  );
}

export function WalkPanel() {
  const t = useApp((s) => s.walk) as WalkView | undefined;
  const request = useApp((s) => s.walkRequest) as WalkView | undefined;
  const side = useApp((s) => s.walkSide);
  const hop = useApp((s) => s.hop);
  const stepHop = useApp((s) => s.stepHop);
  const clearWalk = useApp((s) => s.clearWalk);
  const error = useApp((s) => s.walkError);
  const loading = useApp((s) => s.walkLoading);
  return (
    <div className={`walk-panel side-body scroll side-${side}`} data-testid="walk-panel" data-side={side}>
      <WalkForm />
      {error && (
        <div className="note error walk-error" role="alert">
          <span>{error}</span>
        </div>
      )}
      {/* While a new walk is on its way the last one is not shown: its verdict would read as the new packet's. */}
      {(!t || loading) && !error && (
        <div className="walk-empty muted" aria-busy={loading || undefined}>
          {loading ? (
            <>
              <span className="spinner" aria-hidden /> Walking…
            </>
          ) : (
            <>
              Pick a preset, type two addresses, or use <Crosshair size={12} aria-hidden /> and click two nodes on the graph. In search, <span className="mono">10.244.1.5 -&gt; 10.96.0.10:53/udp</span> walks too.
            </>
          )}
        </div>
      )}
      {/* Hidden, not unmounted: mounting the result again cost ≈ 100 ms a walk on a 250-pod node (bench:app). */}
      {t && (
        <div className="walk-result" style={{ display: loading ? 'none' : 'contents' }}>
          {side === 'request' ? <PresetWhy /> : request && <ReplyBar request={request} />}
          <VerdictBanner t={t} />
          <div className="hop-nav" data-testid="hop-nav">
            <button type="button" className="btn small" onClick={() => stepHop(-1)} disabled={hop <= 0} aria-label="Previous hop" data-testid="hop-prev">
              <ArrowLeft size={13} aria-hidden />
            </button>
            <span className="hop-pos">
              {side === 'reply' ? 'reply hop' : 'hop'} <strong data-testid="hop-pos">{hop + 1}</strong> of {t.hops.length}
            </span>
            <button type="button" className="btn small" onClick={() => stepHop(1)} disabled={hop >= t.hops.length - 1} aria-label="Next hop" data-testid="hop-next">
              <ArrowRight size={13} aria-hidden />
            </button>
            <span className="muted hop-keys">
              <kbd>←</kbd>
              <kbd>→</kbd> step · <kbd>Esc</kbd> leave
            </span>
            <button type="button" className="btn ghost small icon" onClick={clearWalk} aria-label="Leave the walk" title="Leave the walk (Esc)" data-testid="walk-clear">
              <X size={14} aria-hidden />
            </button>
          </div>
          <HopList t={t} />
        </div>
      )}
    </div>
  );
}
