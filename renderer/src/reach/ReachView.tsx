// The Reachability view: every local pod and the host (rows) against pods, Services, remote pod
// subnets, the node and the outside (columns), each cell the outcome of one example packet's walk.
// The backend works the matrix out as a step of the node (progress, Cancel); the grid is virtualised
// in both directions (only the cells in sight are in the DOM), its groups collapse, and it is one tab
// stop with arrow keys between cells (a roving tabindex). A cell opens its walk in the walk panel.
// The grouping, filters, colours and words are analysis/view-models/reach-view.ts.
import { useEffect, useMemo, useState } from 'react';
import type { BundleStep } from '../../../contract/index.ts';
import type { ReachMatrixView } from '../../../analysis/view-models/reach-data.ts';
import { cellFlow, defaultCollapsed, findingsTouched, reachGrid, type ReachFilter } from '../../../analysis/view-models/reach-view.ts';
import { api } from '../api/index.ts';
import { appStore, useApp } from '../store/app-store.ts';
import { ReachGridView } from './ReachGridView.tsx';
import { ReachLegend, ReachToolbar } from './ReachToolbar.tsx';
import './reach.css';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function ReachView() {
  const bundleId = useApp((s) => s.bundle?.id);
  if (!bundleId) return null;
  return <ReachForNode key={bundleId} bundleId={bundleId} />;
}

function ReachForNode({ bundleId }: { bundleId: string }) {
  const [data, setData] = useState<ReachMatrixView>();
  const [error, setError] = useState<string>();
  const [step, setStep] = useState<BundleStep>();
  const [attempt, setAttempt] = useState(0);
  const [filter, setFilter] = useState<ReachFilter>({ kind: 'all' });
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    let live = true;
    setError(undefined);
    const off = api.subscribe((e) => {
      if (live && e.type === 'step' && e.job.jobId === `${bundleId}:reach`) setStep(e.job);
    });
    api.reachMatrix({ bundleId }).then(
      (v) => {
        if (!live) return;
        setCollapsed(defaultCollapsed(v));
        setData(v);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
      off();
    };
  }, [bundleId, attempt]);

  const grid = useMemo(() => (data ? reachGrid(data, filter, collapsed) : undefined), [data, filter, collapsed]);
  const touched = useMemo(() => (data ? findingsTouched(data) : []), [data]);

  const toggle = (id: string) => setCollapsed((c) => (c.has(id) ? new Set([...c].filter((x) => x !== id)) : new Set([...c, id])));
  const openCell = (r: number, k: number) => {
    const c = grid?.at(r, k).cell;
    const flow = c && data ? cellFlow(data, c) : undefined;
    if (!flow) return;
    const s = appStore.getState();
    s.setPanel('walk');
    void s.runWalk(flow, { focus: 'deciding' });
  };

  if (!data) {
    const p = step?.state === 'running' ? step.progress : undefined;
    return (
      <section className="reach-view" aria-label="Reachability" data-testid="reach-view">
        <h2 className="reach-title">Reachability</h2>
        {error ? (
          <div className="reach-status" role="alert" data-testid="reach-error">
            <p>The reachability could not be worked out: {error}</p>
            <button type="button" className="btn" onClick={() => setAttempt((a) => a + 1)}>
              Work it out again
            </button>
          </div>
        ) : (
          <div className="reach-status" role="status" data-testid="reach-progress">
            <p>Walking every source to every destination, and each reply{p?.what ? ` — ${p.what}` : ''}…</p>
            {p && p.total > 0 && <progress max={p.total} value={p.done} aria-label="Sources worked out" />}
            <button type="button" className="btn" onClick={() => void api.cancelReach({ bundleId })} data-testid="reach-cancel">
              Cancel
            </button>
          </div>
        )}
      </section>
    );
  }

  return (
    <section className="reach-view" aria-label="Reachability" data-testid="reach-view">
      <ReachToolbar filter={filter} setFilter={setFilter} touched={touched} counts={grid!.counts} sources={data.sources.length} destinations={data.destinations.length} />
      <ReachLegend />
      {data.notes.length > 0 && (
        <ul className="reach-notes">
          {data.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {grid!.rows.length === 0 ? (
        <p className="reach-empty" data-testid="reach-empty">
          No cell matches this filter.
        </p>
      ) : (
        <ReachGridView grid={grid!} onOpen={openCell} onToggle={toggle} />
      )}
    </section>
  );
}
