// The node's topology: uplink → vSwitch → networks → pods and host vNICs → load balancers → remote,
// in five columns, drawn by React Flow. Clicking a node (or Enter on it) selects its object; search
// and inventory selections zoom here. The pieces live in views/topology/ (one hook per job: folding,
// the React Flow model, faults, marking, the level of detail, the camera, the keyboard, clicks) over
// pure graph/ modules.
//
// The graph's container says what is lit, what the camera is doing and how much is drawn
// (data-lit-ids, data-current-ids, data-finding-ids, data-fault-ids, data-camera,
// data-camera-reason, data-camera-shows, data-lod): what the walk lights does not depend on what
// React Flow happens to draw, and tests wait for the camera instead of sleeping.
import { memo, useCallback, useMemo, useRef } from 'react';
import { Background, BackgroundVariant, MiniMap, ReactFlow, ReactFlowProvider, useStore, type Node } from '@xyflow/react';
import { useApp } from '../store/app-store.ts';
import { GROUP_TYPE, NODE_TYPE, type FlowEdge, type FlowNode } from '../graph/to-flow.ts';
import { TopoNodeView } from '../graph/TopoNodeView.tsx';
import { TopoGroupView } from '../graph/TopoGroupView.tsx';
import { SUMMARY_TYPE, SummaryCards, SummaryLayerView, type SummaryNode } from '../graph/SummaryLayerView.tsx';
import { LABELLED_TYPE, LabelledEdge } from '../graph/LabelledEdge.tsx';
import { kindInfo } from '../graph/kinds.ts';
import { fullGraph } from '../graph/full-graph.ts';
import { summaryModel } from '../graph/summary.ts';
import { graphBounds } from '../graph/viewport.ts';
import { fitViewport, MINIMAP, minimapShown } from '../graph/camera-moves.ts';
import { useCollapsedGroups } from './topology/useCollapsedGroups.ts';
import { useGraphModel } from './topology/useGraphModel.ts';
import { useFaultMarks } from './topology/useFaultMarks.ts';
import { useHighlight } from './topology/useHighlight.ts';
import { useCamera } from './topology/useCamera.ts';
import { useLod } from './topology/useLod.ts';
import { useActivateNode, useNodeClick } from './topology/useNodeClick.ts';
import { useGraphKeys } from './topology/useGraphKeys.ts';
import { GraphToolbar } from './topology/GraphToolbar.tsx';
import { PickBanner } from './topology/PickBanner.tsx';

const nodeTypes = { [NODE_TYPE]: TopoNodeView, [GROUP_TYPE]: TopoGroupView, [SUMMARY_TYPE]: SummaryLayerView };
const edgeTypes = { [LABELLED_TYPE]: LabelledEdge };

/** Past this many drawn links, they are hidden while the user pans or zooms (graph.css .dense.panning):
 *  redrawing hundreds of curves each frame is what made panning a big node stutter. */
const DENSE_EDGES = 400;

function miniColor(n: Node): string {
  // The summary layer's card (no topology object) can reach the minimap for the frame in which the
  // zoom crosses into the summary level, before the minimap is taken away.
  const d = (n as Partial<FlowNode>).data as Partial<FlowNode['data']> | undefined;
  if (!d?.topo || d.openGroup) return 'transparent';
  return kindInfo(d.topo.kind).color;
}

const ids = (set: Iterable<string> | undefined): string | undefined => (set ? [...set].join(' ') : undefined);

function Graph() {
  const topology = useApp((s) => s.topology);
  const topoLoading = useApp((s) => s.topologyLoading);
  const picking = useApp((s) => s.picking);
  const wrapRef = useRef<HTMLDivElement>(null);
  const full = useMemo(() => (topology ? fullGraph(topology) : undefined), [topology]);
  const groups = useCollapsedGroups(full);
  const aspect = useCallback(() => {
    const el = wrapRef.current;
    return el && el.clientWidth && el.clientHeight ? el.clientWidth / el.clientHeight : 1.5;
  }, []);
  const { vis, layout, flow } = useGraphModel(full, groups.collapsed, groups.key, aspect);
  const marks = useFaultMarks(full, vis);
  const { selectedId, walkPath, findingIds, shown } = useHighlight(full, vis, flow, marks, layout.boxes);
  const camera = useCamera({ wrapRef, topology: full, vis, layout, walkPath, findingIds, selectedId });
  const lod = useLod(wrapRef);
  const onNodeClick = useNodeClick();
  // A stable handler: a new function on every render is a changed prop React Flow copies into its store.
  const onFlowNodeClick = useCallback((e: React.MouseEvent, n: Node) => n.type !== SUMMARY_TYPE && onNodeClick(e, n as FlowNode), [onNodeClick]);
  const activate = useActivateNode();
  useGraphKeys(wrapRef, vis, layout.boxes, shown.nodes, camera.reveal, activate);

  const bounds = useMemo(() => (layout.boxes && vis ? graphBounds(layout.boxes, vis) : undefined), [layout.boxes, vis]);
  // Zooming out stops where the whole graph is still a few hundred pixels across (the summary's
  // counts need the room), never above the zoom that fits it.
  const minZoom = useStore((s) => {
    if (!bounds || !s.width || !s.height) return 0.01;
    const fit = fitViewport(bounds, bounds, { width: s.width, height: s.height }).zoom;
    return Math.max(0.005, Math.min(fit * 0.9, Math.min(360 / bounds.width, 240 / bounds.height)));
  });
  const minimap = useStore((s) => !!bounds && minimapShown(bounds, { x: s.transform[0], y: s.transform[1], zoom: s.transform[2] }, { width: s.width, height: s.height }));
  const summary = useMemo<SummaryNode[] | undefined>(() => {
    if (lod !== 'summary' || !full || !vis || !layout.boxes) return undefined;
    const model = summaryModel(full, vis, layout.boxes, marks, walkPath?.nodes);
    if (!model) return undefined;
    return [{ id: '__summary', type: SUMMARY_TYPE, position: { x: model.bounds.x, y: model.bounds.y }, width: model.bounds.width, height: model.bounds.height, data: { model }, draggable: false, selectable: false, focusable: false }];
  }, [lod, full, vis, layout.boxes, marks, walkPath]);

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

  const findingOn = !!findingIds?.size;
  const thinned = shown.edges.length < flow.edges.length;
  return (
    <>
      <GraphToolbar vis={vis} layout={layout} groups={groups} links={shown.edges.length} thinned={thinned} fit={camera.fit} zoomStep={camera.zoomStep} />
      <div className="graph-area">
        <div
          ref={wrapRef}
          className={`graph-wrap lod-${lod} ${walkPath ? 'walking' : ''} ${findingOn ? 'finding-on' : ''} ${picking ? 'picking' : ''} ${shown.edges.length > DENSE_EDGES ? 'dense' : ''}`}
          data-testid="graph"
          data-lod={lod}
          data-lit-ids={ids(walkPath?.nodes.keys())}
          data-current-ids={ids(walkPath?.current)}
          data-finding-ids={findingOn ? ids(findingIds) : undefined}
          data-fault-ids={marks?.nodes.size ? ids(marks.nodes.keys()) : undefined}
          data-fault-edges={marks?.edges.size ? ids(marks.edges.keys()) : undefined}
          data-camera={camera.status.state}
          data-camera-reason={camera.status.reason}
          data-camera-fitted={camera.status.fitted}
          data-camera-shows={camera.status.shows.join(' ')}
        >
          <ReactFlow<Node, FlowEdge>
            nodes={summary ?? shown.nodes}
            edges={summary ? [] : shown.edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodeClick={onFlowNodeClick}
            onMoveStart={camera.onMoveStart}
            onMove={camera.onMove}
            onMoveEnd={camera.onMoveEnd}
            onlyRenderVisibleElements
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable
            autoPanOnNodeFocus={false}
            minZoom={minZoom}
            maxZoom={2.5}
            proOptions={{ hideAttribution: true }}
            defaultEdgeOptions={{ type: 'default' }}
            aria-label="Topology graph"
          >
            <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} color="var(--canvas-dots)" />
            {/* Not over a walk or a finding: their fits use the whole canvas (camera-moves.ts). */}
            {minimap && lod !== 'summary' && !walkPath && !findingOn && (
              <MiniMap pannable zoomable nodeColor={miniColor} nodeStrokeWidth={0} position="bottom-right" className="minimap" style={{ width: MINIMAP.width, height: MINIMAP.height, margin: MINIMAP.margin }} ariaLabel="Overview of the topology" />
            )}
            {summary && <SummaryCards model={summary[0].data.model} />}
            <PickBanner />
          </ReactFlow>
        </div>
      </div>
    </>
  );
}

// Memoized (it takes no props): the shell re-rendering — the side panel resized, another view
// chosen — must not redraw the graph.
export const TopologyView = memo(function TopologyView() {
  const error = useApp((s) => s.topologyError);
  const loadTopology = useApp((s) => s.loadTopology);
  if (error) {
    return (
      <div className="empty-note error-text" role="alert" data-testid="topology-error">
        Could not build the topology: {error}
        <button type="button" className="btn small" onClick={() => void loadTopology()}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <div className="topology" data-testid="topology">
      <ReactFlowProvider>
        <Graph />
      </ReactFlowProvider>
    </div>
  );
});
