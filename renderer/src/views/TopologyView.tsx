// The node's topology: uplink → vSwitch → networks → host vNICs/compartments/endpoints → load
// balancers → remote, laid out by ELK in a worker and drawn by React Flow. Clicking a node selects
// its object; search and inventory selections zoom here. The pieces live in views/topology/ (one
// hook per job: folding, the React Flow model, marking, the camera, clicks) over pure graph/ modules.
//
// The graph's container says what is lit and what the camera is doing (data-lit-ids,
// data-current-ids, data-finding-ids, data-camera, data-camera-reason, data-camera-shows): what the
// walk lights does not depend on what React Flow happens to draw, and tests wait for the camera.
import { useRef } from 'react';
import { Background, BackgroundVariant, Controls, MiniMap, Panel, ReactFlow, ReactFlowProvider, type Node } from '@xyflow/react';
import { useApp } from '../store/app-store.ts';
import { GROUP_TYPE, NODE_TYPE, type FlowNode } from '../graph/to-flow.ts';
import { TopoNodeView } from '../graph/TopoNodeView.tsx';
import { TopoGroupView } from '../graph/TopoGroupView.tsx';
import { kindInfo } from '../graph/kinds.ts';
import { GraphLegend } from './GraphLegend.tsx';
import { useCollapsedGroups } from './topology/useCollapsedGroups.ts';
import { useGraphModel } from './topology/useGraphModel.ts';
import { useHighlight } from './topology/useHighlight.ts';
import { useCamera } from './topology/useCamera.ts';
import { useNodeClick } from './topology/useNodeClick.ts';
import { GraphToolbar } from './topology/GraphToolbar.tsx';
import { PickBanner } from './topology/PickBanner.tsx';

const nodeTypes = { [NODE_TYPE]: TopoNodeView, [GROUP_TYPE]: TopoGroupView };
/** Above this many links the load balancers' backend links fade (graph.css .dense), so the rest can be read. */
const DENSE_EDGES = 800;

function miniColor(n: Node): string {
  const d = (n as FlowNode).data;
  if (d?.openGroup) return 'transparent';
  return kindInfo(d?.topo.kind ?? '').color;
}

const ids = (set: Iterable<string> | undefined): string | undefined => (set ? [...set].join(' ') : undefined);

function Graph() {
  const topology = useApp((s) => s.topology);
  const topoLoading = useApp((s) => s.topologyLoading);
  const picking = useApp((s) => s.picking);
  const wrapRef = useRef<HTMLDivElement>(null);
  const groups = useCollapsedGroups(topology);
  const { vis, layout, flow } = useGraphModel(topology, groups.collapsed);
  const { selectedId, walkPath, findingIds, shown } = useHighlight(topology, vis, flow);
  const camera = useCamera({ wrapRef, topology, vis, layout, walkPath, findingIds, selectedId });
  const onNodeClick = useNodeClick();

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
  return (
    <div
      ref={wrapRef}
      className={`graph-wrap ${(vis?.edges.length ?? 0) > DENSE_EDGES ? 'dense' : ''} ${walkPath ? 'walking' : ''} ${findingOn ? 'finding-on' : ''} ${picking ? 'picking' : ''}`}
      data-testid="graph"
      data-lit-ids={ids(walkPath?.nodes.keys())}
      data-current-ids={ids(walkPath?.current)}
      data-finding-ids={findingOn ? ids(findingIds) : undefined}
      data-camera={camera.status.state}
      data-camera-reason={camera.status.reason}
      data-camera-shows={camera.status.shows.join(' ')}
    >
    <ReactFlow
      nodes={shown.nodes}
      edges={shown.edges}
      nodeTypes={nodeTypes}
      onNodeClick={onNodeClick}
      onMoveStart={camera.onMoveStart}
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
      <GraphToolbar vis={vis} layout={layout} groups={groups} lbsGrouped={!!topology.collapsed} fit={camera.fit} />
      <PickBanner />
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
