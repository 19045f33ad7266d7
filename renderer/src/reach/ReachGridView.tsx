// The reachability grid, virtualised both ways with @tanstack/react-virtual: only the rows and the
// columns in sight (and a few beyond) are rendered, so 250 sources × 2,000 destinations stay a few
// hundred cells in the DOM. Row headers stick to the left, column headers to the top. One tab stop: the
// focused cell has tabindex 0 (a roving tabindex), arrow keys, Home/End and PageUp/PageDown move it,
// Enter does what the cell needs next: works out what is under it when something is not worked out
// yet, else opens its walk (on a group's line: collapses or opens the group); Space collapses or opens
// the group of a group's line.
import { useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { ReachGrid, ReachLine } from '../../../analysis/view-models/reach-view.ts';
import { INFERRED_MARK } from '../../../analysis/view-models/reach-view.ts';

const CELL = 24;
const ROW_HEAD = 300;
const COL_HEAD = 150;

interface Props {
  grid: ReachGrid;
  onOpen(row: number, col: number): void;
  onToggle(groupId: string): void;
  /** Work out the cells under a row × a column that are not worked out yet. */
  onCompute(row: number, col: number): void;
}

function LineHead({ line, onToggle, axis }: { line: ReachLine; onToggle(id: string): void; axis: 'row' | 'col' }) {
  if (line.type === 'group') {
    const Icon = line.collapsed ? ChevronRight : ChevronDown;
    return (
      <button type="button" className={`reach-group-toggle ${axis}`} aria-expanded={!line.collapsed} onClick={() => onToggle(line.id)} title={`${line.label} (${line.members.length})`} tabIndex={-1} data-testid="reach-group">
        <Icon size={13} aria-hidden />
        <span>
          {line.label} <span className="muted">({line.members.length})</span>
        </span>
      </button>
    );
  }
  return (
    <span className={`reach-end ${axis}`} title={line.label}>
      {line.label}
    </span>
  );
}

export function ReachGridView({ grid, onOpen, onToggle, onCompute }: Props) {
  const scroll = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState({ r: 0, k: 0 });
  const wantFocus = useRef(false);
  const rows = useVirtualizer({ count: grid.rows.length, getScrollElement: () => scroll.current, estimateSize: () => CELL, overscan: 6, paddingStart: COL_HEAD });
  const cols = useVirtualizer({ horizontal: true, count: grid.cols.length, getScrollElement: () => scroll.current, estimateSize: () => CELL, overscan: 6, paddingStart: ROW_HEAD });
  const r = Math.min(focus.r, grid.rows.length - 1);
  const k = Math.min(focus.k, grid.cols.length - 1);

  useEffect(() => {
    if (!wantFocus.current) return;
    wantFocus.current = false;
    scroll.current?.querySelector<HTMLElement>(`[data-cell="${r}:${k}"]`)?.focus({ preventScroll: true });
  });

  const move = (nr: number, nk: number) => {
    const rr = Math.max(0, Math.min(grid.rows.length - 1, nr));
    const kk = Math.max(0, Math.min(grid.cols.length - 1, nk));
    setFocus({ r: rr, k: kk });
    rows.scrollToIndex(rr, { align: 'auto' });
    cols.scrollToIndex(kk, { align: 'auto' });
    wantFocus.current = true;
  };
  const page = Math.max(1, Math.floor(((scroll.current?.clientHeight ?? 600) - COL_HEAD) / CELL) - 1);
  const toggleAt = (rr: number, kk: number) => {
    const row = grid.rows[rr];
    const col = grid.cols[kk];
    if (row?.type === 'group') onToggle(row.id);
    else if (col?.type === 'group') onToggle(col.id);
  };
  const open = (rr: number, kk: number) => {
    const row = grid.rows[rr];
    const col = grid.cols[kk];
    if (grid.at(rr, kk).missing > 0) onCompute(rr, kk);
    else if (row?.type === 'group') onToggle(row.id);
    else if (col?.type === 'group') onToggle(col.id);
    else onOpen(rr, kk);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowUp: () => move(r - 1, k),
      ArrowDown: () => move(r + 1, k),
      ArrowLeft: () => move(r, k - 1),
      ArrowRight: () => move(r, k + 1),
      Home: () => move(e.ctrlKey ? 0 : r, 0),
      End: () => move(e.ctrlKey ? grid.rows.length - 1 : r, grid.cols.length - 1),
      PageUp: () => move(r - page, k),
      PageDown: () => move(r + page, k),
      Enter: () => open(r, k),
      ' ': () => (grid.rows[r]?.type === 'group' || grid.cols[k]?.type === 'group' ? toggleAt(r, k) : open(r, k)),
    };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  };

  const vRows = rows.getVirtualItems();
  const vCols = cols.getVirtualItems();
  const width = cols.getTotalSize();
  const height = rows.getTotalSize();
  return (
    <div
      ref={scroll}
      className="reach-scroll"
      role="grid"
      aria-label="Reachability: sources in rows, destinations in columns"
      aria-rowcount={grid.rows.length + 1}
      aria-colcount={grid.cols.length + 1}
      onKeyDown={onKeyDown}
      data-testid="reach-grid"
    >
      <div className="reach-canvas" style={{ width, height }}>
        <div className="reach-col-heads" style={{ width, height: COL_HEAD }} role="row" aria-rowindex={1}>
          <div className="reach-corner" style={{ width: ROW_HEAD, height: COL_HEAD }} role="columnheader" aria-colindex={1}>
            <span className="muted">From ↓ · To →</span>
          </div>
          {vCols.map((c) => (
            <div key={c.key} className={`reach-col-head ${grid.cols[c.index].type}`} style={{ left: c.start, width: c.size, height: COL_HEAD }} role="columnheader" aria-colindex={c.index + 2}>
              <LineHead line={grid.cols[c.index]} onToggle={onToggle} axis="col" />
            </div>
          ))}
        </div>
        {vRows.map((vr) => {
          const line = grid.rows[vr.index];
          return (
            <div key={vr.key} className={`reach-row ${line.type}`} style={{ top: vr.start, height: vr.size, width }} role="row" aria-rowindex={vr.index + 2}>
              <div className="reach-row-head" style={{ width: ROW_HEAD }} role="rowheader" aria-colindex={1}>
                <LineHead line={line} onToggle={onToggle} axis="row" />
              </div>
              {vCols.map((vc) => {
                const cell = grid.at(vr.index, vc.index);
                const on = vr.index === r && vc.index === k;
                return (
                  <div
                    key={vc.key}
                    role="gridcell"
                    aria-colindex={vc.index + 2}
                    aria-label={cell.label}
                    title={cell.label}
                    tabIndex={on ? 0 : -1}
                    data-cell={`${vr.index}:${vc.index}`}
                    data-tone={cell.tone}
                    data-missing={cell.missing || undefined}
                    data-inferred={cell.inferred || undefined}
                    className={`reach-cell reach-tone-${cell.tone} ${cell.match || cell.missing ? '' : 'dim'} ${grid.cols[vc.index].type === 'group' || line.type === 'group' ? 'sum' : ''} ${cell.missing ? 'missing' : ''}`}
                    style={{ left: vc.start, width: vc.size, height: vr.size }}
                    onClick={() => {
                      setFocus({ r: vr.index, k: vc.index });
                      open(vr.index, vc.index);
                    }}
                    onFocus={() => (on ? undefined : setFocus({ r: vr.index, k: vc.index }))}
                  >
                    {cell.glyph}
                    {/* A verdict resting on an inference: a glyph of its own, not a colour (the legend says what it means). */}
                    {cell.inferred && (
                      <span className="reach-inferred" aria-hidden>
                        {INFERRED_MARK}
                      </span>
                    )}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
