// A link with a label worth reading on the canvas ("via 10.240.0.20"): the label is drawn over the
// nodes, on a background of its own, so a node's border never runs through its text (a remote
// subnet and its next hop are stacked a few pixels apart, and a label at the link's middle sat on
// both borders). Drawn at the detail level only (graph.css).
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import type { FlowEdge } from './to-flow.ts';

export const LABELLED_TYPE = 'labelled';

export function LabelledEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, label, style, markerEnd, markerStart, interactionWidth }: EdgeProps<FlowEdge>) {
  const [path, x, y] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  return (
    <>
      <BaseEdge id={id} path={path} style={style} markerEnd={markerEnd} markerStart={markerStart} interactionWidth={interactionWidth} />
      {label && (
        <EdgeLabelRenderer>
          <div className="edge-label" data-testid="edge-label" data-edge={id} style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}>
            {label}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}
