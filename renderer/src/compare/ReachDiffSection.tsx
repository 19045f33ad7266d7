// Compare's Reachability part: the packet classes whose outcome changed between A and B (verdict,
// deciding rule or reply), worked out in a worker with progress and Cancel. Every change is listed
// (ReachDiffList, virtualised), grouped by source and then by destination kind. Filters narrow it: the
// kind of change (worse, better, other), the verdict it became ("became dropped"), words. `/` goes to
// the words; Esc there clears them, then goes back to the list; Enter on a change opens both walks side
// by side, Esc closes them.
import { useMemo, useRef, useState } from 'react';
import { Search } from 'lucide-react';
import { changeKind, type ReachChangeFilter, type ReachChangeLine } from '../../../analysis/view-models/reach-diff-view.ts';
import { becameChoices, becameLabel, filterReachDiff, reachDiffLines, type BecameFilter } from '../../../analysis/view-models/reach-diff-lines.ts';
import { useReachDiff } from './useReachDiff.ts';
import { ReachWalksDialog } from './ReachWalksDialog.tsx';
import { ReachDiffList } from './ReachDiffList.tsx';
import './compare-reach.css';

const FILTERS: { kind: ReachChangeFilter; label: string }[] = [
  { kind: 'all', label: 'Every change' },
  { kind: 'worse', label: 'Got worse' },
  { kind: 'better', label: 'Got better' },
  { kind: 'other', label: 'Other changes' },
];

const fmt = (n: number) => n.toLocaleString('en-US');

export function ReachDiffSection({ jobId, pathA }: { jobId: string; pathA: string }) {
  const { view, step, error, cancel, retry } = useReachDiff(jobId);
  const [kind, setKind] = useState<ReachChangeFilter>('all');
  const [became, setBecame] = useState<BecameFilter>('any');
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const [open, setOpen] = useState<ReachChangeLine>();
  const search = useRef<HTMLInputElement>(null);
  const section = useRef<HTMLElement>(null);
  const shown = useMemo(() => (view ? filterReachDiff(view.changed, { kind, became, query }) : []), [view, kind, became, query]);
  const lines = useMemo(() => reachDiffLines(shown), [shown]);
  const choices = useMemo(() => (view ? becameChoices(view.changed) : []), [view]);
  const p = step?.state === 'running' ? step.progress : undefined;
  const toList = () => section.current?.querySelector<HTMLElement>('[data-testid="reach-diff-list"]')?.focus();

  // `/` anywhere in this part goes to the words (not while typing in a field).
  const onKeyDown = (e: React.KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') return;
    e.preventDefault();
    search.current?.focus();
    search.current?.select();
  };
  // Esc in the words: clears them, or (empty) goes back to the list; the dialog stays open.
  const onSearchKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (query) setQuery('');
      else toList();
    } else if (e.key === 'Enter' || e.key === 'ArrowDown') {
      e.preventDefault();
      toList();
    }
  };
  const narrowed = kind !== 'all' || became !== 'any' || query.trim() !== '';

  return (
    <section ref={section} className="diff-section reach-diff" data-testid="reach-diff" aria-label="Reachability" onKeyDown={onKeyDown}>
      <h3>
        Reachability
        {view && <span className={`badge ${view.changed.length ? 'warning' : 'ok'}`} data-testid="reach-diff-count" data-count={view.changed.length}>{view.changed.length ? `${fmt(view.changed.length)} changed` : 'no change'}</span>}
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
                  <button key={f.kind} type="button" role="radio" aria-checked={kind === f.kind} className={`kind-toggle ${kind === f.kind ? 'on' : ''}`} onClick={() => {
                      setKind(f.kind);
                      setAt(0);
                    }} data-testid={`reach-diff-filter-${f.kind}`}>
                    {f.label} <span className="muted">{f.kind === 'all' ? view.changed.length : view.changed.filter((c) => changeKind(c) === f.kind).length}</span>
                  </button>
                ))}
              </div>
              <select className="input reach-diff-became" value={became} onChange={(e) => {
                  setBecame(e.target.value as BecameFilter);
                  setAt(0);
                }} aria-label="Show changes by the verdict they became" data-testid="reach-diff-became">
                <option value="any">
                  {becameLabel('any')} ({fmt(view.changed.length)})
                </option>
                {choices.map((c) => (
                  <option key={c.became} value={c.became}>
                    {becameLabel(c.became)} ({fmt(c.count)})
                  </option>
                ))}
              </select>
              <div className="diff-search">
                <Search size={13} aria-hidden />
                <input
                  ref={search}
                  className="input"
                  value={query}
                  onChange={(e) => {
                    setQuery(e.target.value);
                    setAt(0);
                  }}
                  onKeyDown={onSearchKey}
                  placeholder="Search the changes (pod, address, rule…)  /"
                  aria-label="Search the reachability changes"
                  aria-keyshortcuts="/"
                  data-testid="reach-diff-search"
                />
              </div>
            </div>
          )}
          {view.changed.length > 0 && (
            <div className="muted small-text" role="status" data-testid="reach-diff-shown" data-count={shown.length}>
              {narrowed ? `${fmt(shown.length)} of ${fmt(view.changed.length)} changes match` : `Every change listed: ${fmt(shown.length)}`}
              {shown.length > 0 ? ' — ↑↓ move, Enter opens both walks, / searches' : ''}
            </div>
          )}
          {view.changed.length > 0 && shown.length === 0 && <div className="empty-note muted">No change matches.</div>}
          {shown.length > 0 && (
            <ReachDiffList
              lines={lines}
              count={shown.length}
              at={at}
              onMove={setAt}
              onOpen={setOpen}
            />
          )}
        </>
      )}
      {open && <ReachWalksDialog jobId={jobId} change={open} pathA={pathA} onClose={() => setOpen(undefined)} />}
    </section>
  );
}
