// Inventory: one tab per table, a filter, sortable columns and virtualized rows (a big node has
// thousands of services). Clicking a row selects the object (inspector, and the graph zooms to it).
import { useMemo, useRef, useState, useEffect, type KeyboardEvent, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, Search } from 'lucide-react';
import type { InventoryTable } from '../../../analysis/view-models/types.ts';
import { refKey } from '../../../analysis/view-models/types.ts';
import { useApp } from '../store/app-store.ts';
import { FlagBadges } from '../components/FlagBadges.tsx';
import { emptyTableMessage, filterRows, sortRows, type SortState } from './inventory-model.ts';
import { plural } from '../lib/format.ts';
import { fitColumns } from './fit-columns.ts';

const ROW_H = 30;

/** Column widths from the longest value in the first rows: every row must share one template (a
 *  per-row `fr`/max-content grid misaligns as soon as one cell is wider than the others). */
/**
 * A column's floor when the pane is narrow: its header whole; the first column (the row's key: an IP,
 * a name) keeps its natural width.
 */
export function columnFloors(table: InventoryTable, natural: readonly number[]): number[] {
  return table.columns.map((c, i) => (i === 0 ? natural[0] : Math.round(Math.max(56, c.title.length * 7.5 + 30))));
}

export function columnWidths(table: InventoryTable): number[] {
  const sample = table.rows.slice(0, 500);
  return table.columns.map((c) => {
    let longest = 0;
    for (const r of sample) longest = Math.max(longest, (r.cells[c.key] ?? '').length);
    const perChar = c.mono ? 7.3 : 7;
    return Math.round(Math.min(440, Math.max(c.title.length * 7.5 + 34, longest * perChar + 24, 64)));
  });
}

/** The width of the element `ref` points at, followed as it changes (0 before it is drawn). */
function usePaneWidth(ref: RefObject<HTMLDivElement | null>): number {
  const [w, setW] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setW(el.clientWidth);
    const ro = new ResizeObserver(() => setW(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return w;
}

function Table({ table }: { table: InventoryTable }) {
  const counts = useApp((s) => s.bundle?.counts);
  const selected = useApp((s) => s.selected);
  const select = useApp((s) => s.select);
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState | undefined>();
  const [active, setActive] = useState(0);
  const rows = useMemo(() => sortRows(filterRows(table.rows, filter), sort), [table.rows, filter, sort]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const hasFlags = table.rows.some((r) => r.flags?.length);
  const natural = useMemo(() => columnWidths(table), [table]);
  const paneWidth = usePaneWidth(scrollRef);
  // The flags column and the scroll bar keep their room; the rest is shared out (fit-columns.ts).
  const widths = useMemo(() => (paneWidth ? fitColumns(natural, columnFloors(table, natural), paneWidth - (hasFlags ? 140 : 0) - 16) : natural), [natural, table, paneWidth, hasFlags]);
  // A trailing 1fr filler lets the last real column keep its width while the row spans the pane.
  const template = [...widths.map((w) => `${w}px`), ...(hasFlags ? ['140px'] : []), 'minmax(0, 1fr)'].join(' ');
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_H, overscan: 12 });
  const selKey = selected ? refKey(selected) : '';

  useEffect(() => setActive(0), [filter, sort, table.key]);

  const onSort = (key: string) =>
    setSort((s) => (s?.key !== key ? { key, dir: 'asc' } : s.dir === 'asc' ? { key, dir: 'desc' } : undefined));

  const onKeyDown = (e: KeyboardEvent) => {
    if (!rows.length) return;
    let next = active;
    if (e.key === 'ArrowDown') next = Math.min(rows.length - 1, active + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, active - 1);
    else if (e.key === 'PageDown') next = Math.min(rows.length - 1, active + 15);
    else if (e.key === 'PageUp') next = Math.max(0, active - 15);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'Enter') {
      void select(rows[active].ref, { focusGraph: true });
      return;
    } else return;
    e.preventDefault();
    setActive(next);
    virtual.scrollToIndex(next, { align: 'auto' });
  };

  return (
    <div className="inv-table">
      <div className="inv-toolbar">
        <div className="filter-box">
          <Search size={14} aria-hidden />
          <input className="input" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={`Filter ${table.title.toLowerCase()}…`} aria-label={`Filter ${table.title}`} data-testid="inventory-filter" />
        </div>
        <span className="muted">
          {rows.length === table.rows.length ? plural(table.rows.length, 'row') : `${rows.length.toLocaleString('en-US')} of ${table.rows.length.toLocaleString('en-US')}`}
        </span>
      </div>
      <div className="grid-scroll" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown} role="grid" aria-label={table.title} aria-rowcount={rows.length} data-testid={`table-${table.key}`}>
        <div className="grid-head" role="row" style={{ gridTemplateColumns: template }}>
          {table.columns.map((c) => (
            <button key={c.key} type="button" role="columnheader" className="grid-th" onClick={() => onSort(c.key)} aria-sort={sort?.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
              <span className="ellipsis" title={c.title}>{c.title}</span>
              {sort?.key === c.key && (sort.dir === 'asc' ? <ArrowUp size={12} aria-hidden /> : <ArrowDown size={12} aria-hidden />)}
            </button>
          ))}
          {hasFlags && <div className="grid-th">Flags</div>}
        </div>
        {table.rows.length === 0 ? (
          <div className="empty-note" data-testid="table-empty">
            <strong>{emptyTableMessage(table.key, counts)}</strong>
          </div>
        ) : rows.length === 0 ? (
          <div className="empty-note">Nothing matches “{filter}”.</div>
        ) : (
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((v) => {
              const r = rows[v.index];
              const isSel = refKey(r.ref) === selKey;
              return (
                <div
                  key={v.key}
                  role="row"
                  aria-selected={isSel}
                  className={`grid-row ${isSel ? 'selected' : ''} ${v.index === active ? 'active' : ''}`}
                  style={{ gridTemplateColumns: template, transform: `translateY(${v.start}px)`, height: ROW_H }}
                  onClick={() => {
                    setActive(v.index);
                    void select(r.ref, { focusGraph: true });
                  }}
                >
                  {table.columns.map((c) => (
                    <div key={c.key} role="gridcell" className={`grid-td ellipsis ${c.mono ? 'mono' : ''}`} title={r.cells[c.key]}>
                      {r.cells[c.key] || <span className="muted">—</span>}
                    </div>
                  ))}
                  {hasFlags && (
                    <div role="gridcell" className="grid-td">
                      <FlagBadges flags={r.flags} max={2} />
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

export function InventoryView() {
  const inventory = useApp((s) => s.inventory);
  const error = useApp((s) => s.inventoryError);
  const tab = useApp((s) => s.inventoryTab);
  const setTab = useApp((s) => s.setInventoryTab);
  if (error) return <div className="empty-note error-text">Could not build the inventory: {error}</div>;
  if (!inventory)
    return (
      <div className="empty-note">
        <span className="spinner" /> Building the inventory…
      </div>
    );
  const table = inventory.find((t) => t.key === tab) ?? inventory[0];
  return (
    <div className="inventory" data-testid="inventory">
      <div className="subtabs" role="tablist" aria-label="Inventory tables">
        {inventory.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            aria-selected={t.key === table?.key}
            className={`subtab ${t.key === table?.key ? 'active' : ''}`}
            onClick={() => setTab(t.key)}
            data-testid={`inv-tab-${t.key}`}
          >
            {t.title} <span className="tab-count">{t.rows.length.toLocaleString('en-US')}</span>
          </button>
        ))}
      </div>
      {table && <Table key={table.key} table={table} />}
    </div>
  );
}
