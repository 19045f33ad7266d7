// CNI ADD timeline: one row per pod sandbox with its ADD time and outcome; opening one draws its
// steps on a time axis, the longest gap marked and named, each step's file:line opening the excerpt.
import { useState } from 'react';
import { ChevronDown, ChevronRight, Clock, FileSearch } from 'lucide-react';
import type { SandboxTimeline } from '../../../analysis/timeline/types.ts';
import { useApp } from '../store/app-store.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { axisPositions, formatMs, sandboxTitle, sortTimelines } from './model.ts';

function Steps({ t }: { t: SandboxTimeline }) {
  const pos = axisPositions(t);
  const gap = t.longestGap;
  return (
    <div className="tl-body" data-testid="timeline-steps">
      {gap && (
        <div className="tl-gap-note">
          <Clock size={13} aria-hidden />
          <span>
            Longest gap <strong>{formatMs(gap.ms)}</strong> between “{gap.from}” and “{gap.to}”
          </span>
        </div>
      )}
      {t.timeOfDayOnly && <div className="muted tl-small">Timestamps of different precision were mixed; times were compared by time of day.</div>}
      <ol className="tl-steps">
        {t.steps.map((s, i) => {
          const inGap = gap && i === gap.toIndex;
          const p = pos[i];
          return (
            <li key={i} className={`tl-step ${s.error ? 'error' : ''} ${inGap ? 'after-gap' : ''} ${t.addEnd === i ? 'add-end' : ''}`}>
              <span className="tl-at mono">{s.at !== undefined ? `+${formatMs(s.at)}` : s.clock ?? '–'}</span>
              <span className="tl-axis" aria-hidden>
                {p !== undefined && <span className="tl-dot" style={{ left: `${p * 100}%` }} />}
                {inGap && gap && pos[gap.fromIndex] !== undefined && p !== undefined && (
                  <span className="tl-gapbar" style={{ left: `${pos[gap.fromIndex]! * 100}%`, width: `${(p - pos[gap.fromIndex]!) * 100}%` }} />
                )}
              </span>
              <span className="tl-gap mono">{s.gap !== undefined && i > 0 ? `${formatMs(s.gap)}` : ''}</span>
              <span className="tl-label" title={s.text}>
                <span className="tl-comp">{s.component}</span> {s.label}
              </span>
              <SourceLink file={s.file} line={s.line} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export function TimelineView() {
  const timelines = useApp((s) => s.timelines);
  const error = useApp((s) => s.timelinesError);
  const [open, setOpen] = useState<string | undefined>();
  if (error) return <div className="empty-note error-text">Could not build the timelines: {error}</div>;
  if (!timelines) {
    return (
      <div className="empty-note">
        <span className="spinner" /> Reading the logs…
      </div>
    );
  }
  if (!timelines.length) {
    return (
      <div className="timeline-view scroll" data-testid="timeline-view">
        <div className="empty-note tl-empty" data-testid="timeline-empty">
          <FileSearch size={24} aria-hidden />
          <strong>No CNI ADD timeline in this bundle</strong>
          The timeline is built from the kubelet, containerd and CNI agent logs (kubelet.log, containerd.log, the CNI plugin's or agent's log such as
          antrea-agent.log or azure-vnet.log). CollectLogs does not gather them by default: copy them into the bundle folder and open it again.
        </div>
      </div>
    );
  }
  const list = sortTimelines(timelines);
  const widest = Math.max(1, ...list.map((t) => t.add ?? t.total ?? 0));
  return (
    <div className="timeline-view scroll" data-testid="timeline-view">
      <div className="files-head">
        <h2>CNI ADD timeline</h2>
        <span className="badge">{list.length} sandbox{list.length === 1 ? '' : 'es'}</span>
        <span className="muted">from the kubelet, containerd and CNI logs in the bundle</span>
      </div>
      <ul className="tl-list">
        {list.map((t) => {
          const isOpen = open === t.sandboxId;
          // One timed line gives no duration: say so rather than “0 ms”.
          const timed = t.steps.filter((x) => x.at !== undefined).length;
          const dur = timed >= 2 ? (t.add ?? t.total) : undefined;
          return (
            <li key={t.sandboxId} className={`tl-item ${t.outcome} ${isOpen ? 'open' : ''}`} data-testid="timeline">
              <button type="button" className="tl-head" onClick={() => setOpen(isOpen ? undefined : t.sandboxId)} aria-expanded={isOpen}>
                {isOpen ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
                <span className="tl-name">{sandboxTitle(t)}</span>
                <span className="mono muted tl-id" title={t.sandboxId}>
                  {t.sandboxId.slice(0, 12)}
                </span>
                <span className="tl-bar" aria-hidden>
                  {dur !== undefined && <span style={{ width: `${Math.max(2, (dur / widest) * 100)}%` }} />}
                </span>
                <span className="mono tl-dur" title={dur === undefined ? 'the logs give fewer than two times for this sandbox' : 'CNI ADD time'}>
                  {dur === undefined ? 'no times' : formatMs(dur)}
                </span>
                <span className={`badge ${t.outcome === 'failed' ? 'error' : t.outcome === 'succeeded' ? 'ok' : ''}`}>{t.outcome}</span>
                <span className="muted tl-count">{t.steps.length} steps</span>
              </button>
              {isOpen && <Steps t={t} />}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
