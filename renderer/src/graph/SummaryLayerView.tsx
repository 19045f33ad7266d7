// The summary layer (summary.ts), drawn as one React Flow node below the minimum readable zoom: the
// nodes as plain boxes in one SVG (no text a few pixels high, and one element per node instead of a
// component each, so panning stays smooth on thousands), and over each column a block with what it
// holds counted, in text sized for the screen. A column's block zooms into that column (click, or
// Enter when focused).
import { memo } from 'react';
import { useStore, type Node, type NodeProps } from '@xyflow/react';
import { cardPlaces, cardSize, SUMMARY_TEXT_PX, type SummaryModel } from './summary.ts';
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
  // Cards that would overlap on screen go down a row (in em: the card's own text size).
  const places = cardPlaces(model.columns, model.bounds, 1 / scale);
  const rowHeight = (Math.max(...model.columns.map((c) => cardSize(c).height)) + 10) / SUMMARY_TEXT_PX;
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
      {model.columns.map((c, i) => (
        <button
          key={c.column}
          type="button"
          className="summary-column nodrag"
          data-testid="summary-column"
          style={{ left: c.box.x - ox, top: 0, width: c.box.width, height: model.bounds.height, fontSize: SUMMARY_TEXT_PX * scale }}
          onClick={(e) => (e.stopPropagation(), graphCommands.zoomInto?.(c.box))}
          title={`Zoom into ${c.title.toLowerCase()}`}
        >
          <span className="summary-card" style={{ marginTop: `${0.5 + places[i].row * rowHeight}em`, transform: `translateX(${places[i].shift / SUMMARY_TEXT_PX}em)` }}>
            <strong>{c.title}</strong>
            {c.lines.map((l) => (
              <span key={l}>{l}</span>
            ))}
            {c.faults.error > 0 && <span className="sum-fault error">{c.faults.error} with errors</span>}
            {c.faults.warning > 0 && <span className="sum-fault warning">{c.faults.warning} with warnings</span>}
          </span>
        </button>
      ))}
    </div>
  );
});
