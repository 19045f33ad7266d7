// The topology's toolbar: Fit, fold or open every group, draw every load balancer, the graph's size
// and what the layout is doing (arranging, the grid layout of a very big graph, the fallback when
// the layout worker failed).
import { Panel } from '@xyflow/react';
import { ChevronsDownUp, ChevronsUpDown, Layers, Maximize } from 'lucide-react';
import { useApp } from '../../store/app-store.ts';
import { ELK_MAX_NODES } from '../../graph/elk-graph.ts';
import type { LayoutState } from '../../graph/useLayout.ts';
import type { VisibleGraph } from '../../graph/visible-graph.ts';
import type { CollapsedGroups } from './useCollapsedGroups.ts';

export interface GraphToolbarProps {
  vis?: VisibleGraph;
  layout: LayoutState;
  groups: CollapsedGroups;
  /** Whether the backend drew load balancers in groups (so expanding them means something). */
  lbsGrouped: boolean;
  fit(): void;
}

export function GraphToolbar({ vis, layout, groups, lbsGrouped, fit }: GraphToolbarProps) {
  const expanded = useApp((s) => s.topologyExpanded);
  const topoLoading = useApp((s) => s.topologyLoading);
  const loadTopology = useApp((s) => s.loadTopology);
  return (
    <Panel position="top-left" className="graph-toolbar">
      <button type="button" className="btn small" onClick={fit} title="Fit the whole graph (F)">
        <Maximize size={13} aria-hidden /> Fit <kbd>F</kbd>
      </button>
      {groups.groups.size > 0 && (
        <>
          <button type="button" className="btn small" onClick={groups.collapseAll} title="Collapse every compartment and group">
            <ChevronsDownUp size={13} aria-hidden /> Collapse groups
          </button>
          <button type="button" className="btn small" onClick={groups.expandAll} title="Open every group">
            <ChevronsUpDown size={13} aria-hidden /> Expand groups
          </button>
        </>
      )}
      {(lbsGrouped || expanded) && (
        <label className="check toolbar-check" title="Draw every load balancer as its own node (slower on big nodes)">
          <input type="checkbox" checked={expanded} disabled={topoLoading} onChange={(e) => void loadTopology(e.target.checked)} data-testid="expand-lbs" />
          <Layers size={13} aria-hidden /> Expand load balancers
        </label>
      )}
      <span className="graph-stats muted" data-testid="graph-stats">
        {vis?.nodes.length.toLocaleString('en-US')} nodes · {vis?.edges.length.toLocaleString('en-US')} links
      </span>
      {(layout.status === 'running' || topoLoading) && (
        <span className="graph-status" role="status">
          <span className="spinner" aria-hidden /> {topoLoading ? 'Loading…' : `Arranging ${vis?.nodes.length.toLocaleString('en-US')} nodes…`}
        </span>
      )}
      {layout.status === 'grid' && (
        <span className="badge info" title={`More than ${ELK_MAX_NODES.toLocaleString('en-US')} nodes: the layered layout would take minutes`}>
          grid layout
        </span>
      )}
      {layout.status === 'fallback' && (
        <span className="badge warning" title={layout.error}>
          simple layout (the layout worker failed)
        </span>
      )}
    </Panel>
  );
}
