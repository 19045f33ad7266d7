// The node's topology: uplink → vSwitch → networks → host vNICs/compartments/endpoints → load
// balancers → remote, laid out by ELK in a worker and drawn by React Flow. Clicking a node selects
// its object; search and inventory selections zoom here.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Background, BackgroundVariant, Controls, MiniMap, Panel, ReactFlow, ReactFlowProvider, useReactFlow, type NodeMouseHandler, type Node } from '@xyflow/react';
import { ChevronsDownUp, ChevronsUpDown, Layers, Maximize } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import { defaultCollapsed, groupIds, nodeIdForRef, visibleGraph } from '../graph/visible.ts';
import { applySelection, GROUP_TYPE, NODE_TYPE, toFlow, type FlowNode } from '../graph/adapter.ts';
import { TopoNodeView } from '../graph/TopoNodeView.tsx';
import { TopoGroupView } from '../graph/TopoGroupView.tsx';
import { useLayout } from '../graph/useLayout.ts';
import { ELK_MAX_NODES } from '../graph/elk-graph.ts';
import { groupToggles } from '../graph/group-toggles.ts';
import { kindInfo } from '../graph/kinds.ts';
import { absoluteBox, initialViewport, topLevelBounds } from '../graph/viewport.ts';
import { graphCommands } from '../hooks/useShortcuts.ts';
import { GraphLegend } from './GraphLegend.tsx';

/** Room the toolbar takes at the top of the canvas, kept clear when placing the camera. */
const TOOLBAR_INSET = 56;

const nodeTypes = { [NODE_TYPE]: TopoNodeView, [GROUP_TYPE]: TopoGroupView };

function miniColor(n: Node): string {
  const d = (n as FlowNode).data;
  if (d?.openGroup) return 'transparent';
  return kindInfo(d?.topo.kind ?? '').color;
}

function Graph() {
  const topology = useApp((s) => s.topology);
  const expanded = useApp((s) => s.topologyExpanded);
  const topoLoading = useApp((s) => s.topologyLoading);
  const loadTopology = useApp((s) => s.loadTopology);
  const selected = useApp((s) => s.selected);
  const focusSeq = useApp((s) => s.focusSeq);
  const visible = useApp((s) => s.view === 'topology');
  const select = useApp((s) => s.select);
  const rf = useReactFlow();
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());

  useEffect(() => {
    if (topology) setCollapsed(defaultCollapsed(topology));
  }, [topology]);

  const toggle = useCallback((id: string) => {
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  useEffect(() => {
    groupToggles.toggle = toggle;
    return () => {
      if (groupToggles.toggle === toggle) groupToggles.toggle = undefined;
    };
  }, [toggle]);

  const vis = useMemo(() => (topology ? visibleGraph(topology, collapsed) : undefined), [topology, collapsed]);
  const layout = useLayout(vis);
  const flow = useMemo(() => (vis && layout.boxes ? toFlow(vis, layout.boxes) : { nodes: [], edges: [] }), [vis, layout.boxes]);

  const selectedNodeId = useMemo(() => {
    if (!topology || !selected || !vis) return undefined;
    const id = nodeIdForRef(topology, selected);
    return id ? vis.visibleOf.get(id) ?? id : undefined;
  }, [topology, selected, vis]);
  const shown = useMemo(() => applySelection(flow.nodes, flow.edges, selectedNodeId), [flow, selectedNodeId]);

  const fit = useCallback(() => void rf.fitView({ padding: 0.08, duration: 250 }), [rf]);
  useEffect(() => {
    graphCommands.fit = fit;
    return () => {
      if (graphCommands.fit === fit) graphCommands.fit = undefined;
    };
  }, [fit]);

  // Place the camera once per graph (and once more when ELK replaces the instant layout), not on
  // every collapse — that would jump the view away from what the user is looking at.
  const placedFor = useRef<{ graph: unknown; final: boolean }>({ graph: undefined, final: false });
  const wrapRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!layout.boxes || !vis || !visible) return;
    const final = layout.status !== 'running';
    const placed = placedFor.current;
    if (placed.graph === topology && (placed.final || !final)) return;
    placedFor.current = { graph: topology, final };
    const boxes = layout.boxes;
    requestAnimationFrame(() => {
      const el = wrapRef.current;
      const top = vis.nodes.filter((n) => !n.parent || !vis.openGroups.has(n.parent));
      const bounds = topLevelBounds(boxes, top.map((n) => n.id));
      const anchor = topLevelBounds(boxes, top.filter((n) => n.rank <= 1).map((n) => n.id));
      const vp = el && bounds ? initialViewport(bounds, { width: el.clientWidth, height: el.clientHeight }, TOOLBAR_INSET, anchor) : undefined;
      if (vp) void rf.setViewport(vp);
      else void rf.fitView({ padding: 0.08 });
    });
  }, [layout.version, layout.boxes, layout.status, topology, vis, visible, rf]);

  // Zoom to the selection when asked (search, inventory, links), once the node has a box.
  const zoomedSeq = useRef(0);
  useEffect(() => {
    if (!visible || !selectedNodeId || focusSeq === zoomedSeq.current || !layout.boxes?.[selectedNodeId]) return;
    zoomedSeq.current = focusSeq;
    // Computed from the layout rather than with fitView({nodes}): with onlyRenderVisibleElements an
    // off-screen node has never been measured, and fitView skips unmeasured nodes.
    const abs = absoluteBox(layout.boxes, vis, selectedNodeId);
    if (abs) requestAnimationFrame(() => void rf.setCenter(abs.x + abs.width / 2, abs.y + abs.height / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 400 }));
  }, [visible, focusSeq, selectedNodeId, layout.boxes, vis, rf]);

  const onNodeClick: NodeMouseHandler<FlowNode> = useCallback(
    (_e, node) => {
      const n = node.data.topo;
      if (n.ref) void select(n.ref);
      else if (n.members?.length === 1) void select(n.members[0]);
    },
    [select],
  );

  const groups = useMemo(() => (topology ? groupIds(topology) : new Set<string>()), [topology]);

  if (!topology) {
    return (
      <div className="empty-note">
        <span className="spinner" /> {topoLoading ? 'Building the topology…' : 'No topology yet.'}
      </div>
    );
  }
  if (!topology.nodes.length) {
    return (
      <div className="empty-note" data-testid="topology-empty">
        <strong>Nothing to draw.</strong>
        This bundle has no HNS networks, endpoints, adapters or VFP ports the topology could be built from. The Inventory and Files &amp; issues views show what was read.
      </div>
    );
  }

  return (
    <div ref={wrapRef} className={`graph-wrap ${(vis?.edges.length ?? 0) > 800 ? 'dense' : ''}`}>
    <ReactFlow
      nodes={shown.nodes}
      edges={shown.edges}
      nodeTypes={nodeTypes}
      onNodeClick={onNodeClick}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable
      minZoom={0.03}
      maxZoom={2.5}
      proOptions={{ hideAttribution: true }}
      defaultEdgeOptions={{ type: 'default' }}
      aria-label="Topology graph"
    >
      <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} color="var(--canvas-dots)" />
      <Controls showInteractive={false} position="bottom-right" />
      <MiniMap pannable zoomable nodeColor={miniColor} nodeStrokeWidth={0} position="bottom-left" className="minimap" ariaLabel="Overview of the topology" />
      <Panel position="top-left" className="graph-toolbar">
        <button type="button" className="btn small" onClick={fit} title="Fit the whole graph (F)">
          <Maximize size={13} aria-hidden /> Fit <kbd>F</kbd>
        </button>
        {groups.size > 0 && (
          <>
            <button type="button" className="btn small" onClick={() => setCollapsed(new Set(groups))} title="Collapse every compartment and group">
              <ChevronsDownUp size={13} aria-hidden /> Collapse groups
            </button>
            <button type="button" className="btn small" onClick={() => setCollapsed(new Set())} title="Open every group">
              <ChevronsUpDown size={13} aria-hidden /> Expand groups
            </button>
          </>
        )}
        {(topology.collapsed || expanded) && (
          <label className="check toolbar-check" title="Draw every load balancer as its own node (slower on big nodes)">
            <input type="checkbox" checked={expanded} disabled={topoLoading} onChange={(e) => void loadTopology(e.target.checked)} data-testid="expand-lbs" />
            <Layers size={13} aria-hidden /> Expand load balancers
          </label>
        )}
        <span className="graph-stats muted">
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
      <Panel position="top-right" className="legend-panel">
        <GraphLegend />
      </Panel>
    </ReactFlow>
    </div>
  );
}

export function TopologyView() {
  const error = useApp((s) => s.topologyError);
  if (error) return <div className="empty-note error-text">Could not build the topology: {error}</div>;
  return (
    <div className="topology" data-testid="topology">
      <ReactFlowProvider>
        <Graph />
      </ReactFlowProvider>
    </div>
  );
}
