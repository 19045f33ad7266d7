// The Services table, virtualised with @tanstack/react-virtual: only the lines in sight (and a few
// beyond) are in the DOM, so 2,000 Service ports stay a few dozen rows. Column headers sort (a second
// click reverses). One tab stop: the focused line has tabindex 0 (a roving tabindex); ↑/↓, Page Up/Down,
// Home/End move it, Enter opens a row (on a namespace's line: folds or opens it), ←/→ fold and open.
import { useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { backendsCell, backendsText, policyCell, policyText, type ServicesLine, type ServicesSort, type ServicesSortKey } from '../../../analysis/view-models/services-table-view.ts';

const LINE = 28;

const COLUMNS: { key: ServicesSortKey; label: string; title?: string }[] = [
  { key: 'name', label: 'Service' },
  { key: 'port', label: 'Port' },
  { key: 'type', label: 'Type' },
  { key: 'vip', label: 'VIP' },
  { key: 'backends', label: 'Backends', title: 'backends: ready in the snapshot / in the HNS load balancer' },
  { key: 'policy', label: 'eTP / iTP', title: 'externalTrafficPolicy / internalTrafficPolicy' },
  { key: 'state', label: 'State' },
];

interface Props {
  lines: ServicesLine[];
  sort: ServicesSort;
  onSort(key: ServicesSortKey): void;
  openKey?: string;
  onOpen(key: string): void;
  onToggle(namespace: string, fold?: boolean): void;
}

const lineId = (l: ServicesLine) => (l.type === 'group' ? `ns:${l.namespace}` : l.row.key);

export function ServicesGrid({ lines, sort, onSort, openKey, onOpen, onToggle }: Props) {
  const scroll = useRef<HTMLDivElement>(null);
  const [focusId, setFocusId] = useState<string>();
  const wantFocus = useRef(false);
  const rows = useVirtualizer({ count: lines.length, getScrollElement: () => scroll.current, estimateSize: () => LINE, overscan: 8 });
  // The focused line survives sorting and filtering by its key; gone, the first line takes it.
  const found = focusId ? lines.findIndex((l) => lineId(l) === focusId) : -1;
  const at = found >= 0 ? found : 0;

  useEffect(() => {
    if (!wantFocus.current) return;
    wantFocus.current = false;
    scroll.current?.querySelector<HTMLElement>(`[data-line="${at}"]`)?.focus({ preventScroll: true });
  });

  const move = (i: number) => {
    const n = Math.max(0, Math.min(lines.length - 1, i));
    const l = lines[n];
    if (!l) return;
    setFocusId(lineId(l));
    rows.scrollToIndex(n, { align: 'auto' });
    wantFocus.current = true;
  };
  const activate = (l: ServicesLine) => (l.type === 'group' ? onToggle(l.namespace) : onOpen(l.row.key));
  const page = Math.max(1, Math.floor((scroll.current?.clientHeight ?? 600) / LINE) - 2);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const l = lines[at];
    const keys: Record<string, () => void> = {
      ArrowUp: () => move(at - 1),
      ArrowDown: () => move(at + 1),
      PageUp: () => move(at - page),
      PageDown: () => move(at + page),
      Home: () => move(0),
      End: () => move(lines.length - 1),
      Enter: () => l && activate(l),
      ' ': () => l && activate(l),
      ArrowLeft: () => l && onToggle(l.type === 'group' ? l.namespace : l.row.namespace, true),
      ArrowRight: () => l?.type === 'group' && onToggle(l.namespace, false),
    };
    const f = keys[e.key];
    if (!f || (e.target as HTMLElement).tagName === 'BUTTON') return;
    e.preventDefault();
    f();
  };

  return (
    <div className="svc-table" role="grid" aria-label="Services on this node" aria-rowcount={lines.length + 1} data-testid="services-grid">
      <div className="svc-head" role="row" aria-rowindex={1}>
        {COLUMNS.map((c) => {
          const on = sort.key === c.key;
          return (
            <div key={c.key} role="columnheader" aria-sort={on ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={`svc-col svc-col-${c.key}`}>
              <button type="button" className={`svc-sort ${on ? 'on' : ''}`} onClick={() => onSort(c.key)} data-testid={`services-sort-${c.key}`} title={`Sort by ${c.title ?? c.label.toLowerCase()}`}>
                {c.label}
                {on ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </button>
            </div>
          );
        })}
      </div>
      <div ref={scroll} className="svc-scroll" onKeyDown={onKeyDown}>
        <div className="svc-canvas" style={{ height: rows.getTotalSize() }}>
          {rows.getVirtualItems().map((v) => {
            const l = lines[v.index];
            if (!l) return null;
            const focused = v.index === at;
            const common = {
              role: 'row',
              'aria-rowindex': v.index + 2,
              tabIndex: focused ? 0 : -1,
              'data-line': v.index,
              style: { top: v.start, height: v.size },
              onFocus: () => (focused ? undefined : setFocusId(lineId(l))),
              onClick: () => {
                setFocusId(lineId(l));
                activate(l);
              },
            } as const;
            if (l.type === 'group') {
              const Icon = l.collapsed ? ChevronRight : ChevronDown;
              return (
                <div key={v.key} {...common} className="svc-line svc-group" aria-expanded={!l.collapsed} data-testid="services-group" data-namespace={l.namespace}>
                  <div role="gridcell" className="svc-group-cell">
                    <Icon size={13} aria-hidden /> <b>{l.namespace}</b>{' '}
                    <span className="muted">
                      {l.rows} port{l.rows === 1 ? '' : 's'}
                      {l.notRealised > 0 && <span className="svc-group-bad"> · {l.notRealised} not realised</span>}
                    </span>
                  </div>
                </div>
              );
            }
            const r = l.row;
            return (
              <div key={v.key} {...common} className={`svc-line svc-row svc-tone-${r.tone} ${openKey === r.key ? 'open' : ''}`} aria-selected={openKey === r.key} data-testid="services-row" data-key={r.key} data-tone={r.tone} data-state={r.state}>
                <div role="gridcell" className="svc-col svc-col-name" title={`${r.namespace}/${r.name}`}>
                  {r.name}
                </div>
                <div role="gridcell" className="svc-col svc-col-port num">
                  {r.nodePort ? `node ${r.port}` : r.port}/{r.proto}
                </div>
                <div role="gridcell" className="svc-col svc-col-type">
                  {r.type}
                </div>
                <div role="gridcell" className="svc-col svc-col-vip num">
                  {r.vip || <span className="muted">node address</span>}
                </div>
                <div role="gridcell" className={`svc-col svc-col-backends ${r.hnsBackends !== r.ready || r.state === 'stale backends' || r.state === 'missing backends' ? 'differ' : ''}`} title={backendsText(r)}>
                  {backendsCell(r)}
                </div>
                <div role="gridcell" className="svc-col svc-col-policy" title={policyText(r)}>
                  {policyCell(r)}
                </div>
                <div role="gridcell" className="svc-col svc-col-state" title={r.stateText} data-testid="services-state">
                  {r.stateText}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
