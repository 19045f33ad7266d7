// The topology's toolbar, above the canvas (never over it): Fit and zoom, fold or open every group,
// draw or fold every VFP port, the graph's size, what the layout is doing (arranging, for how long)
// or why it failed, with a retry, and the legend.
import { useEffect, useState } from 'react';
import { ChevronsDownUp, ChevronsUpDown, Maximize, Plug, RotateCcw, ZoomIn, ZoomOut } from 'lucide-react';
import { useApp } from '../../store/app-store.ts';
import type { LayoutState } from '../../graph/useLayout.ts';
import type { VisibleGraph } from '../../graph/visible-graph.ts';
import type { CollapsedGroups } from './useCollapsedGroups.ts';
import { GraphLegend } from '../GraphLegend.tsx';
import { plural } from '../../lib/format.ts';

export interface GraphToolbarProps {
  vis?: VisibleGraph;
  layout: LayoutState;
  groups: CollapsedGroups;
  /** Links drawn (after thinning a dense graph). */
  links: number;
  /** Backend links left out of a dense graph. */
  thinned: boolean;
  fit(): void;
  zoomStep(dir: 1 | -1): void;
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const s = Math.floor((now - since) / 1000);
  return s >= 1 ? <> · {s} s</> : null;
}

export function GraphToolbar({ vis, layout, groups, links, thinned, fit, zoomStep }: GraphToolbarProps) {
  const topoLoading = useApp((s) => s.topologyLoading);
  const panelHidden = useApp((s) => !s.inspectorOpen);
  const portsShown = groups.hosts.size > 0 && [...groups.hosts].every((h) => !groups.collapsed.has(h));
  return (
    <div className={`graph-toolbar ${panelHidden ? 'panel-hidden' : ''}`} role="toolbar" aria-label="Topology">
      <button type="button" className="btn small" onClick={fit} title="Fit the whole graph (F)" aria-label="Fit">
        <Maximize size={13} aria-hidden /> <span className="tb-label">Fit</span> <kbd>F</kbd>
      </button>
      <button type="button" className="btn small icon" onClick={() => zoomStep(-1)} aria-label="Zoom out" title="Zoom out">
        <ZoomOut size={14} aria-hidden />
      </button>
      <button type="button" className="btn small icon" onClick={() => zoomStep(1)} aria-label="Zoom in" title="Zoom in">
        <ZoomIn size={14} aria-hidden />
      </button>
      {groups.groups.size > 0 && (
        <>
          <button type="button" className="btn small" onClick={groups.collapseAll} title="Fold every compartment and load-balancer group">
            <ChevronsDownUp size={13} aria-hidden /> <span className="tb-label">Collapse</span>
          </button>
          <button type="button" className="btn small" onClick={groups.expandAll} title="Open every compartment and load-balancer group">
            <ChevronsUpDown size={13} aria-hidden /> <span className="tb-label">Expand</span>
          </button>
        </>
      )}
      {groups.hosts.size > 0 && (
        <label className="check toolbar-check" title="Draw each pod's VFP port as a node of its own">
          <input type="checkbox" checked={portsShown} onChange={(e) => groups.showPorts(e.target.checked)} data-testid="show-ports" />
          <Plug size={13} aria-hidden /> <span className="tb-label">VFP ports</span>
        </label>
      )}
      <span className="graph-stats muted" data-testid="graph-stats" title={thinned ? 'Load balancer → backend links are drawn for the selected, walked or faulty objects only' : undefined}>
        {plural(vis?.nodes.length ?? 0, 'node')} · {plural(links, 'link')}
      </span>
      {(layout.status === 'running' || topoLoading) && (
        <span className="graph-status" role="status" data-testid="layout-status">
          <span className="spinner" aria-hidden /> {topoLoading ? 'Loading the topology…' : <>Arranging {plural(layout.nodes ?? 0, 'node')}{layout.startedAt !== undefined && <Elapsed since={layout.startedAt} />}</>}
        </span>
      )}
      {layout.status === 'failed' && (
        <span className="layout-failed" role="alert" data-testid="layout-failed">
          <span className="badge warning" title={layout.error}>
            Layout failed: {layout.error}. Drawn in a simple order meanwhile.
          </span>
          <button type="button" className="btn small" onClick={layout.retry} data-testid="layout-retry">
            <RotateCcw size={13} aria-hidden /> Retry
          </button>
        </span>
      )}
      <span className="toolbar-spacer" />
      <GraphLegend />
    </div>
  );
}
