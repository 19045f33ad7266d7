// CNI ADD timeline: the failed ADDs grouped by pod, then one row per pod sandbox, slowest first, with
// its ADD time ("about" when the logs give whole seconds) and outcome; opening one draws its steps on a
// time axis — each with its offset from the ADD's start, the gap since the step before, its level,
// the plugin or runtime that logged it, its message read out of the log format, its dated clock and
// its file:line (opening the excerpt) — with the longest gap marked and named.
import { useMemo, useState } from 'react';
import { AlertOctagon, ChevronDown, ChevronRight, Clock, FileSearch } from 'lucide-react';
import type { SandboxTimeline } from '../../../analysis/timeline/types.ts';
import { addFailures } from '../../../analysis/timeline/index.ts';
import { useApp } from '../store/app-store.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { afterAdd, afterAddText, axisPositions, durationText, longestGapText, messageParts, nameParts, sandboxDuration, sandboxTitle, stepRows, timelineOrder } from './timeline-rows.ts';

/** Messages longer than this are folded to a few lines until opened. */
const LONG = 180;

function Steps({ t }: { t: SandboxTimeline }) {
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const toggle = (i: number) => setOpened((o) => (o.has(i) ? new Set([...o].filter((x) => x !== i)) : new Set([...o, i])));
  const pos = axisPositions(t);
  const gap = t.longestGap;
  const rows = stepRows(t);
  const gapText = longestGapText(t);
  const waitText = afterAddText(t);
  return (
    <div className="tl-body" data-testid="timeline-steps">
      {gapText && (
        <div className="tl-gap-note" data-testid="timeline-gap">
          <Clock size={13} aria-hidden />
          <span>{gapText}</span>
        </div>
      )}
      {waitText && (
        <div className="tl-gap-note" data-testid="timeline-after-add">
          <Clock size={13} aria-hidden />
          <span>{waitText}</span>
        </div>
      )}
      {t.timeOfDayOnly && <div className="muted tl-small">Timestamps of different precision were mixed; times were compared by time of day.</div>}
      <div className="tl-steps-head" aria-hidden>
        <span>from the ADD’s start</span>
        <span />
        <span>gap</span>
        <span>what was logged</span>
      </div>
      <ol className="tl-steps">
        {t.steps.map((s, i) => {
          const r = rows[i];
          const inGap = gap && i === gap.toIndex;
          const p = pos[i];
          const foldable = !!r.json || r.label.length + (r.detail?.length ?? 0) + r.fields.reduce((n, [k, v]) => n + k.length + v.length + 2, 0) > LONG;
          const open = opened.has(i);
          return (
            <li key={i} className={`tl-step ${s.error ? 'error' : ''} ${inGap ? 'after-gap' : ''} ${t.addEnd === i ? 'add-end' : ''} ${r.inAdd ? '' : 'outside-add'}`} data-testid="timeline-step">
              <span className="tl-at mono" data-testid="step-offset">
                {r.offset}
              </span>
              <span className="tl-axis" aria-hidden>
                {p !== undefined && <span className="tl-dot" style={{ left: `${p * 100}%` }} />}
                {inGap && gap && pos[gap.fromIndex] !== undefined && p !== undefined && (
                  <span className="tl-gapbar" style={{ left: `${pos[gap.fromIndex]! * 100}%`, width: `${(p - pos[gap.fromIndex]!) * 100}%` }} />
                )}
              </span>
              <span className="tl-gap mono">{i > 0 ? r.gap : ''}</span>
              <span className={`tl-text ${foldable && !open ? 'folded' : ''}`}>
                <span className="tl-label" data-testid="step-label">
                  {r.label}
                </span>
                {r.detail && <span className="tl-detail">{r.detail}</span>}
                {open && r.json && <pre className="tl-json mono">{r.json}</pre>}
                {r.fields.length > 0 && (
                  <span className="tl-fields mono">
                    {r.fields.map(([k, v]) => (
                      <span key={k} className="tl-field">
                        {k}=<span className="tl-field-v">{v}</span>
                      </span>
                    ))}
                  </span>
                )}
                <span className="tl-meta">
                  {r.level && (
                    <span className={`badge ${r.level === 'error' ? 'error' : r.level === 'warning' ? 'warning' : ''} tl-level`} data-testid="step-level">
                      {r.level}
                    </span>
                  )}
                  <span className={`tl-comp ${r.plugin ? 'plugin' : ''}`} title={r.plugin ? 'logged by the CNI plugin' : 'logged by the runtime'}>
                    {s.component}
                  </span>
                  {r.clock && <span className="mono muted tl-clock">{r.clock}</span>}
                  <SourceLink file={s.file} line={s.line} />
                  {foldable && (
                    <button type="button" className="link tl-more" onClick={() => toggle(i)} aria-expanded={open}>
                      {open ? 'less' : r.json ? 'show the JSON' : 'more'}
                    </button>
                  )}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** Failed ADDs, one entry per pod however many attempts, with the first error in words. */
function Failures({ timelines, onShow }: { timelines: SandboxTimeline[]; onShow(id: string): void }) {
  const failures = useMemo(() => addFailures(timelines), [timelines]);
  if (!failures.length) return null;
  return (
    <section className="tl-failures" data-testid="timeline-failures">
      <h3>
        <AlertOctagon size={15} aria-hidden className="error-text" /> Failed ADDs
      </h3>
      <ul>
        {failures.map((f) => {
          const title = f.pod ? sandboxTitle({ pod: f.pod, sandboxId: f.sandboxes[0] }) : sandboxTitle({ sandboxId: f.sandboxes[0] });
          return (
            <li key={f.sandboxes.join(',')} data-testid="timeline-failure">
              <span className="tlf-head">
                <strong>{title}</strong>
                <span className="badge error">{f.count === 1 ? 'failed once' : `failed ${f.count} times`}</span>
                {f.last.clock && f.count > 1 && <span className="muted">last at {f.last.clock}</span>}
              </span>
              <span className="tlf-msg">{messageParts(f.first.message ?? f.first.label).text}</span>
              <span className="tlf-where">
                <span className="tl-comp">{f.first.component}</span>
                {f.first.clock && <span className="mono muted">{f.first.clock}</span>}
                <SourceLink file={f.first.file} line={f.first.line} />
                <button type="button" className="link" onClick={() => onShow(f.sandboxes[0])}>
                  show the first attempt
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function TimelineView() {
  const timelines = useApp((s) => s.timelines);
  const error = useApp((s) => s.timelinesError);
  const [open, setOpen] = useState<string | undefined>();
  const list = useMemo(() => (timelines ? timelineOrder(timelines) : []), [timelines]);
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
  const widest = Math.max(1, ...list.map((t) => (sandboxDuration(t)?.ms ?? 0) + (afterAdd(t)?.ms ?? 0)));
  const show = (id: string) => {
    setOpen(id);
    requestAnimationFrame(() => document.querySelector(`[data-sandbox="${CSS.escape(id)}"]`)?.scrollIntoView({ block: 'nearest' }));
  };
  return (
    <div className="timeline-view scroll" data-testid="timeline-view">
      <div className="files-head">
        <h2>CNI ADD timeline</h2>
        <span className="badge">{list.length} sandbox{list.length === 1 ? '' : 'es'}</span>
        <span className="muted">slowest first · from the kubelet, containerd and CNI logs in the bundle</span>
      </div>
      <Failures timelines={timelines} onShow={show} />
      <ul className="tl-list">
        {list.map((t) => {
          const isOpen = open === t.sandboxId;
          // One timed line gives no duration: say so rather than “0 ms”.
          const dur = sandboxDuration(t);
          const wait = afterAdd(t);
          return (
            <li key={t.sandboxId} className={`tl-item ${t.outcome} ${isOpen ? 'open' : ''}`} data-testid="timeline" data-sandbox={t.sandboxId}>
              <button type="button" className="tl-head" onClick={() => setOpen(isOpen ? undefined : t.sandboxId)} aria-expanded={isOpen}>
                {isOpen ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
                <span className="tl-name" title={sandboxTitle(t)} data-testid="timeline-name">
                  <span className="tl-name-head">
                    {nameParts(sandboxTitle(t)).head}
                  </span>
                  <span className="tl-name-tail">
                    {nameParts(sandboxTitle(t)).tail}
                  </span>
                </span>
                <span className="mono muted tl-id" title={t.sandboxId}>
                  {t.plugin ?? t.sandboxId.slice(0, 12)}
                </span>
                <span className="tl-bar" aria-hidden>
                  {dur !== undefined && <span style={{ width: `${Math.max(2, (dur.ms / widest) * 100)}%` }} />}
                  {dur !== undefined && wait && <span className="tl-bar-wait" style={{ width: `${(wait.ms / widest) * 100}%` }} />}
                </span>
                <span className="mono tl-dur" data-testid="timeline-duration" title={dur === undefined ? (t.addStart !== undefined ? 'the ADD started, but no end of it is logged' : 'the logs give fewer than two times for this sandbox') : dur.approximate ? 'CNI ADD time; the logs give whole seconds only' : 'CNI ADD time'}>
                  {dur === undefined ? (t.addStart !== undefined ? 'no end logged' : 'no times') : durationText(dur.ms, dur.approximate)}
                  {wait && <span className="muted" data-testid="timeline-wait" title="time from the ADD's end to the sandbox's last logged line, outside the CNI plugin"> +{durationText(wait.ms, wait.approximate)} after</span>}
                </span>
                <span className={`badge ${t.outcome === 'failed' ? 'error' : t.outcome === 'succeeded' ? 'ok' : ''}`}>{t.outcome}</span>
                <span className="muted tl-count">{t.steps.length === 1 ? '1 step' : `${t.steps.length} steps`}</span>
              </button>
              {isOpen && <Steps t={t} />}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
