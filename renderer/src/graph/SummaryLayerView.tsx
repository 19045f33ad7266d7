// The summary layer (summary.ts), drawn below the minimum readable zoom: the nodes as plain boxes in
// one SVG, one React Flow node (no text a few pixels high, and one element per node instead of a
// component each, so panning stays smooth on thousands); and, on the canvas rather than over the
// graph, a card per column with what it holds counted, in rows along the canvas' top (none over
// another, none cut off: cardLayout). A card zooms into its column (click, or Enter when focused).
import { memo } from 'react';
import { useStore, type Node, type NodeProps } from '@xyflow/react';
import { cardLayout, SUMMARY_TEXT_PX, type SummaryModel } from './summary.ts';
import { kindInfo } from './kinds.ts';
import { graphCommands } from './graph-commands.ts';
import { hopLabel } from '../walk/model.ts';

export const SUMMARY_TYPE = 'summary';
export type SummaryNode = Node<{ model: SummaryModel }, typeof SUMMARY_TYPE>;

export const SummaryLayerView = memo(function SummaryLayerView({ data }: NodeProps<SummaryNode>) {
  const { model } = data;
  // Text is sized in graph units so it reads at TEXT_PX on screen; re-rendered in steps, not every frame.
  const scale = useStore((s) => Math.round((1 / Math.max(0.004, s.transform[2])) * 4) / 4);
  const ox = model.bounds.x;
  const oy = model.bounds.y;
  const stroke = 1.5 * scale;
  return (
    <div className="summary-layer" data-testid="summary-layer" style={{ width: model.bounds.width, height: model.bounds.height }}>
      <svg width={model.bounds.width} height={model.bounds.height} className="summary-shapes" aria-hidden>
        {model.rects.map((r) => (
          <rect
            key={r.id}
            x={r.x - ox}
            y={r.y - oy}
            width={r.width}
            height={r.height}
            rx={6}
            className={`sum-rect ${r.frame ? 'frame' : ''} ${r.fault ? `fault-${r.fault}` : ''} ${r.hops ? 'lit' : ''}`}
            style={{ ['--kind' as string]: kindInfo(r.kind).color, strokeWidth: r.fault || r.hops ? 2 * stroke : r.frame ? stroke : 0 }}
          />
        ))}
        {model.rects
          .filter((r) => r.hops?.length)
          .map((r) => (
            <text key={`h:${r.id}`} x={r.x - ox} y={r.y - oy} className="sum-hop" style={{ fontSize: SUMMARY_TEXT_PX * scale }}>
              {hopLabel(r.hops!)}
            </text>
          ))}
      </svg>
    </div>
  );
});

/** The columns' cards, over the canvas (a child of ReactFlow, in screen pixels). */
export function SummaryCards({ model }: { model: SummaryModel }) {
  const x = useStore((s) => s.transform[0]);
  const zoom = useStore((s) => s.transform[2]);
  const width = useStore((s) => s.width);
  const { places } = cardLayout(model.columns, { x, zoom }, width);
  return (
    <div className="summary-cards" data-testid="summary-cards">
      {model.columns.map((c, i) => (
        <button
          key={c.column}
          type="button"
          className="summary-card nodrag nopan"
          data-testid="summary-column"
          style={{ left: places[i].left, top: places[i].top, width: places[i].width, fontSize: SUMMARY_TEXT_PX }}
          onClick={(e) => (e.stopPropagation(), graphCommands.zoomInto?.(c.box))}
          title={`Zoom into ${c.title.toLowerCase()}`}
        >
          <strong>{c.title}</strong>
          {c.lines.map((l) => (
            <span key={l}>{l}</span>
          ))}
          {c.faults.error > 0 && <span className="sum-fault error">{c.faults.error} with errors</span>}
          {c.faults.warning > 0 && <span className="sum-fault warning">{c.faults.warning} with warnings</span>}
        </button>
      ))}
    </div>
  );
}
