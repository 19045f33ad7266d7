// The node's topology: uplink → vSwitch → networks → host vNICs/compartments/endpoints → load
// balancers → remote, laid out by ELK in a worker and drawn by React Flow. Clicking a node selects
// its object; search and inventory selections zoom here.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Background, BackgroundVariant, Controls, MiniMap, Panel, ReactFlow, ReactFlowProvider, useReactFlow, type NodeMouseHandler, type Node } from '@xyflow/react';
import { ChevronsDownUp, ChevronsUpDown, Crosshair, Layers, Maximize, X } from 'lucide-react';
import { appStore, useApp } from '../store/app-store.ts';
import { defaultCollapsed, groupIds, nodeIdForRef, visibleGraph } from '../graph/visible.ts';
import { applyHighlight, applySelection, GROUP_TYPE, NODE_TYPE, toFlow, type FlowEdge, type FlowNode } from '../graph/adapter.ts';
import { addressOfNode, topoIndex, walkEdges, walkHighlight } from '../walk/model.ts';
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
/** Below this zoom node labels cannot be read: a walk shows its current hop instead of the whole path. */
const MIN_READABLE_ZOOM = 0.75;

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
  const walk = useApp((s) => s.walk);
  const hop = useApp((s) => s.hop);
  const panel = useApp((s) => s.panel);
  const picking = useApp((s) => s.picking);
  const setPicking = useApp((s) => s.setPicking);
  const pickAddress = useApp((s) => s.pickAddress);
  const toast = useApp((s) => s.toast);
  const findings = useApp((s) => s.findings);
  const activeFinding = useApp((s) => s.activeFinding);
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
  const selectedShown = useMemo(() => applySelection(flow.nodes, flow.edges, selectedNodeId), [flow, selectedNodeId]);

  // The packet walk's path (while the findings panel is not in front) and the active finding's objects.
  const index = useMemo(() => (topology ? topoIndex(topology.nodes) : undefined), [topology]);
  const walkHl = useMemo(() => {
    if (!walk || !vis || !index || panel === 'findings') return undefined;
    const hl = walkHighlight(walk, hop, index, (id) => vis.visibleOf.get(id) ?? id);
    const parentOf = new Map(vis.nodes.map((n) => [n.id, n.parent]));
    const isInside = (child: string, group: string) => {
      for (let p = parentOf.get(child), d = 0; p && d < 16; p = parentOf.get(p), d++) if (p === group) return true;
      return false;
    };
    const joined = walkEdges(hl.order, vis.edges, isInside);
    const nodes = new Map(hl.nodes);
    for (const v of joined.via) if (!nodes.has(v)) nodes.set(v, []);
    return { ...hl, nodes, edges: joined.edges, jumps: joined.jumps };
  }, [walk, hop, vis, index, panel]);
  const findingNodes = useMemo(() => {
    if (panel !== 'findings' || !activeFinding || !topology || !vis) return undefined;
    const f = findings?.find((x) => x.key === activeFinding);
    const out = new Set<string>();
    for (const r of f?.refs ?? []) {
      const id = nodeIdForRef(topology, r);
      if (id) out.add(vis.visibleOf.get(id) ?? id);
    }
    return out;
  }, [panel, activeFinding, findings, topology, vis]);
  const shown = useMemo(() => {
    const out = applyHighlight(selectedShown.nodes, selectedShown.edges, { walkNodes: walkHl?.nodes, walkCurrent: walkHl?.current, walkEdges: walkHl?.edges, finding: findingNodes });
    if (!walkHl?.jumps.length || !vis) return out;
    // Consecutive hops the drawn graph does not join: a dashed jump so the path reads end to end.
    const rank = new Map(vis.nodes.map((n) => [n.id, n.rank]));
    const present = new Set(out.nodes.map((n) => n.id));
    const jumps: FlowEdge[] = walkHl.jumps
      .filter((j) => present.has(j.source) && present.has(j.target))
      .map((j) => {
        const back = (rank.get(j.source) ?? 0) > (rank.get(j.target) ?? 0);
        return { id: j.id, source: j.source, target: j.target, sourceHandle: back ? 'back-out' : 'out', targetHandle: back ? 'back-in' : 'in', className: 'walk-edge walk-jump', animated: true, focusable: false, data: { kind: 'attach' } };
      });
    return { nodes: out.nodes, edges: [...out.edges, ...jumps] };
  }, [selectedShown, walkHl, findingNodes, vis]);

  // Bring what lights up into view: the whole path for a new walk, the objects of a finding, and
  // the current hop when stepping takes it off screen.
  const fitIds = useCallback(
    (ids: string[], maxZoom = 1.1, focus: string[] = []) => {
      if (!layout.boxes || !vis || !ids.length) return;
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (const id of ids) {
        const b = absoluteBox(layout.boxes, vis, id);
        if (!b) continue;
        x0 = Math.min(x0, b.x);
        y0 = Math.min(y0, b.y);
        x1 = Math.max(x1, b.x + b.width);
        y1 = Math.max(y1, b.y + b.height);
      }
      if (!Number.isFinite(x0)) return;
      const el = wrapRef.current;
      const w = el?.clientWidth ?? 800;
      const h = (el?.clientHeight ?? 600) - TOOLBAR_INSET;
      const pad = 60;
      const zoom = Math.min(maxZoom, (w - 2 * pad) / Math.max(1, x1 - x0), (h - 2 * pad) / Math.max(1, y1 - y0));
      if (zoom < MIN_READABLE_ZOOM && focus.length) {
        const f = absoluteBox(layout.boxes, vis, hopFocus(focus));
        if (f) {
          void rf.setCenter(f.x + f.width / 2, f.y + f.height / 2, { zoom: MIN_READABLE_ZOOM, duration: 350 });
          return;
        }
      }
      const z = Math.max(0.2, zoom);
      void rf.setViewport({ x: w / 2 - ((x0 + x1) / 2) * z, y: TOOLBAR_INSET + h / 2 - ((y0 + y1) / 2) * z, zoom: z }, { duration: 350 });
    },
    [layout.boxes, vis, rf],
  );
  const fittedWalk = useRef<unknown>(undefined);
  // The current hop when a deferred camera move runs (the user may have stepped meanwhile).
  const currentHopNodes = useRef<string[]>([]);
  currentHopNodes.current = walkHl ? [...walkHl.current] : [];
  useEffect(() => {
    if (!visible || !walkHl || !walk || fittedWalk.current === walk || !layout.boxes) return;
    fittedWalk.current = walk;
    // The whole path when it fits at a readable zoom; otherwise the current hop at that zoom (the
    // camera then follows the hops as the user steps).
    requestAnimationFrame(() => fitIds([...walkHl.nodes.keys()], 1.1, currentHopNodes.current));
  }, [visible, walk, walkHl, layout.boxes, fitIds]);
  useEffect(() => {
    if (!walk) fittedWalk.current = undefined;
  }, [walk]);
  const fittedFinding = useRef<unknown>(undefined);
  useEffect(() => {
    if (!visible || !findingNodes?.size || fittedFinding.current === activeFinding || !layout.boxes) return;
    fittedFinding.current = activeFinding;
    requestAnimationFrame(() => fitIds([...findingNodes], 1));
  }, [visible, findingNodes, activeFinding, layout.boxes, fitIds]);
  useEffect(() => {
    if (!activeFinding) fittedFinding.current = undefined;
  }, [activeFinding]);
  useEffect(() => {
    if (!visible || !walkHl?.current.size || !layout.boxes || !vis || fittedWalk.current !== walk) return;
    const el = wrapRef.current;
    if (!el) return;
    const vp = rf.getViewport();
    const inView = [...walkHl.current].every((id) => {
      const b = absoluteBox(layout.boxes!, vis, id);
      if (!b) return true;
      const sx = b.x * vp.zoom + vp.x;
      const sy = b.y * vp.zoom + vp.y;
      return sx >= 0 && sy >= TOOLBAR_INSET && sx + b.width * vp.zoom <= el.clientWidth && sy + b.height * vp.zoom <= el.clientHeight;
    });
    if (inView) return;
    const b = absoluteBox(layout.boxes, vis, hopFocus([...walkHl.current]));
    if (b) void rf.setCenter(b.x + b.width / 2, b.y + b.height / 2, { zoom: vp.zoom, duration: 300 });
    // Only the hop moving should pan, not every re-render.
  }, [hop]);

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
    (e, node) => {
      const n = node.data.topo;
      // Walk mode (or Alt+click anywhere): the node fills the walk's source, then its destination.
      if (picking || e.altKey) {
        const a = addressOfNode(n);
        if (!a) {
          toast('info', `${n.label} has no IP address to walk from or to; pick an endpoint, a load balancer or a next hop.`);
          return;
        }
        pickAddress(a);
        appStore.getState().setPanel('walk');
        return;
      }
      if (n.ref) void select(n.ref);
      else if (n.members?.length === 1) void select(n.members[0]);
    },
    [select, picking, pickAddress, toast],
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
    <div ref={wrapRef} className={`graph-wrap ${(vis?.edges.length ?? 0) > 800 ? 'dense' : ''} ${walkHl ? 'walking' : ''} ${findingNodes?.size ? 'finding-on' : ''} ${picking ? 'picking' : ''}`}>
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
      {picking && (
        <Panel position="bottom-center" className="pick-banner" data-testid="pick-banner">
          <Crosshair size={14} aria-hidden /> Click the <strong>{picking === 'src' ? 'source' : 'destination'}</strong> node of the walk
          <span className="muted">(Alt+click works any time)</span>
          <button type="button" className="btn ghost small icon" onClick={() => setPicking(undefined)} aria-label="Stop picking">
            <X size={13} aria-hidden />
          </button>
        </Panel>
      )}
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

/**
 * Where the camera goes for a hop: a hop's first node is the port it happens on (the pod itself);
 * the nodes after it are what the hop reached (a DNAT's load balancer and chosen backend), so the
 * camera centres on the first of those.
 */
function hopFocus(ids: string[]): string {
  return ids.length > 1 ? ids[1] : ids[0];
}
