// The Reachability view: every local pod and the host (rows) against pods, Services, remote pod
// subnets, the node and the outside (columns), each cell the outcome of one example packet's walk; on
// a dual-stack node their IPv6 addresses too, as rows and columns of their own (IPv6 against IPv6).
// The backend works the matrix out as a step of the node (progress, Cancel); the grid is virtualised
// in both directions (only the cells in sight are in the DOM), its groups collapse, and it is one tab
// stop with arrow keys between cells (a roving tabindex). A cell opens its walk in the walk panel.
// The grouping, filters, colours and words are analysis/view-models/reach-view.ts.
// Big nodes: the matrix fills progressively (useReachMatrix): rows show as soon as the sources are
// known, cells as they are walked; a cell not worked out is never shown as a verdict, and Enter (or
// a click) on it or on a group's line works out what is under it.
import { useMemo, useState } from 'react';
import type { ReachMatrixView } from '../../../analysis/view-models/reach-data.ts';
import { cellFlow, defaultCollapsed, findingsTouched, reachGrid, type ReachFilter } from '../../../analysis/view-models/reach-view.ts';
import { appStore, useApp } from '../store/app-store.ts';
import { ReachGridView } from './ReachGridView.tsx';
import { ReachLegend, ReachToolbar } from './ReachToolbar.tsx';
import { useReachMatrix } from './useReachMatrix.ts';
import './reach.css';

export function ReachView() {
  const bundleId = useApp((s) => s.bundle?.id);
  if (!bundleId) return null;
  return <ReachForNode key={bundleId} bundleId={bundleId} />;
}

/**
 * Cells there are to walk: every source against every destination of its family (IPv4, or IPv6 on a
 * dual-stack node: a packet keeps its family) but its own address.
 */
function cellsToWalk(v: ReachMatrixView): number {
  // A pod is a destination once per port its Services target: each is a pair not walked.
  const byIp = new Map<string, number>();
  const perFamily = new Map<number, number>();
  for (const d of v.destinations) {
    byIp.set(d.ip, (byIp.get(d.ip) ?? 0) + 1);
    perFamily.set(d.family ?? 4, (perFamily.get(d.family ?? 4) ?? 0) + 1);
  }
  return v.sources.reduce((n, s) => n + (perFamily.get(s.family ?? 4) ?? 0) - (byIp.get(s.ip) ?? 0), 0);
}

function ReachForNode({ bundleId }: { bundleId: string }) {
  const { data, running, step, error, asked, retry, compute, cancel } = useReachMatrix(bundleId);
  const [filter, setFilter] = useState<ReachFilter>({ kind: 'all' });
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>();
  // The groups start collapsed as defaultCollapsed says, once the destinations are known.
  const shut = useMemo(() => collapsed ?? (data ? defaultCollapsed(data) : new Set<string>()), [collapsed, data]);
  const grid = useMemo(() => (data ? reachGrid(data, filter, shut, { running }) : undefined), [data, filter, shut, running]);
  const touched = useMemo(() => (data ? findingsTouched(data) : []), [data]);

  const toggle = (id: string) => setCollapsed((c = shut) => (c.has(id) ? new Set([...c].filter((x) => x !== id)) : new Set([...c, id])));
  const openCell = (r: number, k: number) => {
    const c = grid?.at(r, k).cell;
    const flow = c && data ? cellFlow(data, c) : undefined;
    if (!flow) return;
    const s = appStore.getState();
    s.setPanel('walk');
    // The grid goes away with the walk's view: the focus goes to the walk's verdict, not to the page
    // (a keyboard user would have to Tab past every graph node to get back).
    void s.runWalk(flow, { focus: 'deciding' }).then(() =>
      requestAnimationFrame(() => {
        const a = document.activeElement;
        if (!a || a === document.body) document.querySelector<HTMLElement>('[data-testid="verdict"]')?.focus();
      }),
    );
  };
  const computeAt = (r: number, k: number) => {
    if (!grid) return;
    const b = grid.block(r, k);
    compute(b.sources, b.destinations);
  };
  const p = step?.state === 'running' ? step.progress : undefined;

  if (!data) {
    return (
      <section className="reach-view" aria-label="Reachability" data-testid="reach-view">
        <h2 className="reach-title">Reachability</h2>
        {error ? (
          <div className="reach-status" role="alert" data-testid="reach-error">
            <p>The reachability could not be worked out: {error}</p>
            <button type="button" className="btn" onClick={retry}>
              Work it out again
            </button>
          </div>
        ) : (
          <div className="reach-status" role="status" data-testid="reach-progress">
            <p>Reading the node for its sources and destinations{p?.what ? ` — ${p.what}` : ''}…</p>
          </div>
        )}
      </section>
    );
  }

  const total = cellsToWalk(data);
  return (
    <section className="reach-view" aria-label="Reachability" data-testid="reach-view">
      <ReachToolbar filter={filter} setFilter={setFilter} touched={touched} counts={grid!.counts} sources={data.sources.length} destinations={data.destinations.length} />
      <ReachLegend />
      <div className="reach-run" role="status" data-testid="reach-run" data-running={running}>
        <span data-testid="reach-worked-out">
          {data.cells.length.toLocaleString('en-US')} of {total.toLocaleString('en-US')} cells worked out
          {data.cells.length < total && !running ? ': blank cells are not worked out — Enter (or a click) on one, or on a group, works it out.' : '.'}
        </span>
        {running && (
          <>
            <span data-testid="reach-progress">Walking{p?.what ? ` ${p.what}` : ''}…</span>
            {p && p.total > 0 && <progress max={p.total} value={p.done} aria-label="Cells of this pass worked out" />}
            <button type="button" className="btn small" onClick={cancel} data-testid="reach-cancel">
              Cancel
            </button>
          </>
        )}
        {asked && <span className="muted">{asked}</span>}
        {error && <span role="alert">Lost track of the walks: {error}</span>}
      </div>
      {data.notes.length > 0 && (
        <ul className="reach-notes" data-testid="reach-notes">
          {data.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {grid!.rows.length === 0 ? (
        <p className="reach-empty" data-testid="reach-empty">
          {data.sources.length === 0 || data.destinations.length === 0 ? 'Nothing to walk: this input has no source or no destination (see above).' : `No cell matches this filter${running ? ' yet' : ''}.`}
        </p>
      ) : (
        <ReachGridView grid={grid!} onOpen={openCell} onToggle={toggle} onCompute={computeAt} />
      )}
    </section>
  );
}
