// Compare's Reachability part: the packet classes whose outcome changed between A and B (verdict,
// deciding rule or reply), worked out in a worker with progress and Cancel. Filters (what got worse,
// better, other changes) and a search narrow the list; the list is one tab stop (arrows, Home/End move,
// Enter opens both walks side by side, Esc closes them).
import { useMemo, useRef, useState } from 'react';
import { ArrowRight, Search } from 'lucide-react';
import type { ReachChange } from '../../../analysis/reach/index.ts';
import { changeKind, changeSource, changeTarget, changeWords, filterChanges, sideWords, type ReachChangeFilter } from '../../../analysis/view-models/reach-diff-view.ts';
import { useReachDiff } from './useReachDiff.ts';
import { ReachWalksDialog } from './ReachWalksDialog.tsx';
import './compare-reach.css';

/** Lines shown at most: a longer list says how many more and asks for a narrower filter. */
const SHOWN = 300;

const FILTERS: { kind: ReachChangeFilter; label: string }[] = [
  { kind: 'all', label: 'Every change' },
  { kind: 'worse', label: 'Got worse' },
  { kind: 'better', label: 'Got better' },
  { kind: 'other', label: 'Other changes' },
];

export function ReachDiffSection({ jobId, pathA }: { jobId: string; pathA: string }) {
  const { view, step, error, cancel, retry } = useReachDiff(jobId);
  const [kind, setKind] = useState<ReachChangeFilter>('all');
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const [open, setOpen] = useState<ReachChange>();
  const list = useRef<HTMLUListElement>(null);
  const shown = useMemo(() => (view ? filterChanges(view.changed, kind, query) : []), [view, kind, query]);
  const lines = shown.slice(0, SHOWN);
  const cur = Math.min(at, Math.max(0, lines.length - 1));
  const p = step?.state === 'running' ? step.progress : undefined;

  const move = (i: number) => {
    const n = Math.max(0, Math.min(lines.length - 1, i));
    setAt(n);
    list.current?.querySelector<HTMLElement>(`[data-index="${n}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(cur + 1),
      ArrowUp: () => move(cur - 1),
      Home: () => move(0),
      End: () => move(lines.length - 1),
      PageDown: () => move(cur + 10),
      PageUp: () => move(cur - 10),
      Enter: () => lines[cur] && setOpen(lines[cur]),
    };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  };

  return (
    <section className="diff-section reach-diff" data-testid="reach-diff" aria-label="Reachability">
      <h3>
        Reachability
        {view && <span className={`badge ${view.changed.length ? 'warning' : 'ok'}`}>{view.changed.length ? `${view.changed.length.toLocaleString('en-US')} changed` : 'no change'}</span>}
        {view && (
          <span className="muted small-text">
            {view.compared} of {view.sources} sources compared
          </span>
        )}
      </h3>
      {!view && !error && (
        <div className="reach-diff-run" role="status" data-testid="reach-diff-progress">
          <span>Working out every packet class from each pod and the host, in A and in B{p?.what ? ` — ${p.what}` : ''}…</span>
          {p && p.total > 0 && <progress max={p.total} value={p.done} aria-label="Sources compared" />}
          <button type="button" className="btn small" onClick={cancel} data-testid="reach-diff-cancel">
            Cancel
          </button>
        </div>
      )}
      {error && (
        <div className="note error" role="alert" data-testid="reach-diff-error">
          <span>The reachability could not be compared: {error}</span>
          <button type="button" className="btn small" onClick={retry}>
            Compare it again
          </button>
        </div>
      )}
      {view && (
        <>
          <ul className="reach-diff-notes muted small-text">
            {view.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
            {view.onlyBefore.length > 0 && <li>Only in A (not compared): {view.onlyBefore.map((s) => s.name ?? s.ip).join(', ')}</li>}
            {view.onlyAfter.length > 0 && <li>Only in B (not compared): {view.onlyAfter.map((s) => s.name ?? s.ip).join(', ')}</li>}
          </ul>
          {view.changed.length > 0 && (
            <div className="diff-filters">
              <div className="diff-kind-filter" role="radiogroup" aria-label="Show changes">
                {FILTERS.map((f) => (
                  <button key={f.kind} type="button" role="radio" aria-checked={kind === f.kind} className={`kind-toggle ${kind === f.kind ? 'on' : ''}`} onClick={() => setKind(f.kind)} data-testid={`reach-diff-filter-${f.kind}`}>
                    {f.label} <span className="muted">{f.kind === 'all' ? view.changed.length : view.changed.filter((c) => changeKind(c) === f.kind).length}</span>
                  </button>
                ))}
              </div>
              <div className="diff-search">
                <Search size={13} aria-hidden />
                <input className="input" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search the changes (pod, address, rule…)" aria-label="Search the reachability changes" data-testid="reach-diff-search" />
              </div>
            </div>
          )}
          {view.changed.length > 0 && shown.length === 0 && <div className="empty-note muted">No change matches.</div>}
          {lines.length > 0 && (
            <ul ref={list} className="reach-diff-list" role="listbox" aria-label="Packet classes whose outcome changed: Enter opens both walks" tabIndex={0} aria-activedescendant={`reach-change-${cur}`} onKeyDown={onKeyDown} data-testid="reach-diff-list">
              {lines.map((c, i) => (
                <li
                  key={i}
                  id={`reach-change-${i}`}
                  role="option"
                  aria-selected={i === cur}
                  aria-label={changeWords(c)}
                  data-index={i}
                  data-kind={changeKind(c)}
                  className={`reach-change ${i === cur ? 'current' : ''} ${changeKind(c)}`}
                  onClick={() => {
                    setAt(i);
                    setOpen(c);
                  }}
                  data-testid="reach-change"
                >
                  <span className="reach-change-where">
                    <span className="reach-change-from">{changeSource(c)}</span>
                    <ArrowRight size={12} aria-hidden />
                    <span className="mono">{changeTarget(c)}</span>
                  </span>
                  <span className={`reach-change-side a v-${c.before.verdict.replace(' ', '-')}`} title={`A · before: ${sideWords(c.before)}`}>
                    {sideWords(c.before)}
                  </span>
                  <ArrowRight size={12} aria-hidden />
                  <span className={`reach-change-side b v-${c.after.verdict.replace(' ', '-')}`} title={`B · after: ${sideWords(c.after)}`}>
                    {sideWords(c.after)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          {shown.length > SHOWN && <div className="muted small-text">{(shown.length - SHOWN).toLocaleString('en-US')} more: narrow the filter or the search.</div>}
        </>
      )}
      {open && <ReachWalksDialog jobId={jobId} change={open} pathA={pathA} onClose={() => setOpen(undefined)} />}
    </section>
  );
}
