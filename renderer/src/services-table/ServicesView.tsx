// The Services view: each Service port of the kubectl snapshot and whether this node realises it
// (getServices: inspect's rows with the table's columns). A filter (words, and state chips), the table
// grouped by namespace (ServicesGrid), and the opened row's evidence and walk (ServiceDetail). `/`
// focuses the filter while this view shows; Esc closes the opened row, then clears the filter.
// What is sorted, filtered and grouped is analysis/view-models/services-table-view.ts.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ServicesTableView } from '../../../analysis/view-models/services-table.ts';
import type { BundleStep } from '../../../contract/index.ts';
import { DEFAULT_SORT, SERVICE_CHIPS, servicesLines, type ServiceChip, type ServicesSort, type ServicesSortKey } from '../../../analysis/view-models/services-table-view.ts';
import { api } from '../api/index.ts';
import { useApp } from '../store/app-store.ts';
import { dialogStack } from '../components/dialog-stack.ts';
import { CopyButton } from '../components/CopyChip.tsx';
import { ServicesGrid } from './ServicesGrid.tsx';
import { ServiceDetail } from './ServiceDetail.tsx';
import './services.css';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function ServicesView() {
  const bundleId = useApp((s) => s.bundle?.id);
  if (!bundleId) return null;
  return <ServicesForNode key={bundleId} bundleId={bundleId} />;
}

function ServicesForNode({ bundleId }: { bundleId: string }) {
  const [data, setData] = useState<ServicesTableView>();
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [step, setStep] = useState<BundleStep>();
  const [sort, setSort] = useState<ServicesSort>(DEFAULT_SORT);
  const [text, setText] = useState('');
  const [chips, setChips] = useState<ReadonlySet<ServiceChip>>(new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [openKey, setOpenKey] = useState<string>();
  const filterRef = useRef<HTMLInputElement>(null);
  const paletteOpen = useApp((s) => s.paletteOpen);

  // The backend works the table out in a worker: getServices answers null while it runs (at most ~10 s
  // per request), the node's 'services' step says how far it is and when it ends; then ask again.
  useEffect(() => {
    let live = true;
    let busy = false;
    setError(undefined);
    setStep(undefined);
    const pull = () => {
      if (busy) return;
      busy = true;
      api.getServices({ bundleId }).then(
        (v) => {
          busy = false;
          if (live && v) setData(v);
        },
        (e: unknown) => {
          busy = false;
          if (live) setError(errorText(e));
        },
      );
    };
    const off = api.subscribe(
      (e) => {
        if (!live || e.type !== 'step' || e.job.jobId !== `${bundleId}:services`) return;
        setStep(e.job);
        if (e.job.state === 'done' || e.job.state === 'error') pull();
      },
      () => pull(),
    );
    pull();
    return () => {
      live = false;
      off();
    };
  }, [bundleId, attempt]);

  // `/` focuses the filter here (elsewhere it opens the search): heard before the app's own keys.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || paletteOpen || dialogStack.isOpen()) return;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
      e.preventDefault();
      e.stopPropagation();
      filterRef.current?.focus();
      filterRef.current?.select();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [paletteOpen]);

  const view = useMemo(() => (data ? servicesLines(data.rows, sort, { text, chips }, collapsed) : undefined), [data, sort, text, chips, collapsed]);
  const opened = openKey ? data?.rows.find((r) => r.key === openKey) : undefined;

  const onSort = (key: ServicesSortKey) => setSort((s) => (s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'asc' }));
  const toggleChip = (c: ServiceChip) => setChips((s) => (s.has(c) ? new Set([...s].filter((x) => x !== c)) : new Set([...s, c])));
  const onToggle = (ns: string, fold?: boolean) =>
    setCollapsed((c) => {
      const folded = fold ?? !c.has(ns);
      return folded ? new Set([...c, ns]) : new Set([...c].filter((x) => x !== ns));
    });
  const close = () => {
    setOpenKey(undefined);
    // Back to the row that was open, so the keyboard carries on from there.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="services-grid"] [role="row"][tabindex="0"]')?.focus());
  };

  if (!data) {
    return (
      <section className="svc-view" aria-label="Services" data-testid="services-view">
        <h2 className="svc-title">Services</h2>
        {error ? (
          <div role="alert" data-testid="services-error">
            <p>The Services could not be worked out: {error}</p>
            <button type="button" className="btn" onClick={() => setAttempt((a) => a + 1)}>
              Work them out again
            </button>
          </div>
        ) : (
          <p role="status" className="muted" data-testid="services-progress">
            <span className="spinner" aria-hidden /> Working out the Services…{' '}
            {step?.progress?.what ? `${step.progress.what[0]!.toUpperCase()}${step.progress.what.slice(1)}${step.progress.total ? ` (step ${step.progress.done + 1} of ${step.progress.total})` : ''}.` : 'Holding each Service port of the kubectl snapshot against the node\'s load balancers and VFP rules.'}{' '}
            The rest of hnsight answers meanwhile.
          </p>
        )}
      </section>
    );
  }

  return (
    <section
      className="svc-view"
      aria-label="Services"
      data-testid="services-view"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && opened) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <div className="svc-toolbar">
        <h2 className="svc-title">Services</h2>
        {data.rows.length > 0 && view && (
          <>
            <input
              ref={filterRef}
              type="search"
              className="input svc-filter"
              placeholder="Filter: name, port, VIP, state…  ( / )"
              aria-label="Filter the Services"
              aria-keyshortcuts="/"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && text) {
                  e.stopPropagation();
                  setText('');
                } else if (e.key === 'ArrowDown' || e.key === 'Enter') {
                  e.preventDefault();
                  document.querySelector<HTMLElement>('[data-testid="services-grid"] [role="row"][tabindex="0"]')?.focus();
                }
              }}
              data-testid="services-filter"
            />
            <span className="muted svc-count" data-testid="services-count">
              {view.shown === view.total ? `${view.total} Service port${view.total === 1 ? '' : 's'}` : `${view.shown} of ${view.total} Service ports`} · {view.chipCounts['not realised']} not realised
            </span>
          </>
        )}
      </div>
      {data.rows.length > 0 && view && (
        <div className="svc-chips" role="group" aria-label="Show the states">
          {SERVICE_CHIPS.filter((c) => view.chipCounts[c] > 0 || chips.has(c)).map((c) => (
            <button key={c} type="button" aria-pressed={chips.has(c)} className={`chip svc-chip svc-chip-${c.replace(/\s+/g, '-')} ${chips.has(c) ? 'on' : ''}`} onClick={() => toggleChip(c)} data-testid={`services-chip-${c.replace(/\s+/g, '-')}`}>
              {c} <b>{view.chipCounts[c]}</b>
            </button>
          ))}
        </div>
      )}
      {data.notes.length > 0 && (
        <ul className="svc-notes">
          {data.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {data.empty ? (
        <div className="svc-empty" data-testid="services-empty">
          <p>{data.empty.text}</p>
          {data.empty.collect && (
            <p className="svc-collect">
              <code className="mono">{data.empty.collect}</code> <CopyButton value={data.empty.collect} label="the command" />
            </p>
          )}
        </div>
      ) : view && view.lines.length === 0 ? (
        <p className="svc-empty" data-testid="services-no-match">
          No Service port matches this filter.
        </p>
      ) : (
        view && <ServicesGrid lines={view.lines} sort={sort} onSort={onSort} openKey={openKey} onOpen={setOpenKey} onToggle={onToggle} />
      )}
      {opened && <ServiceDetail row={opened} onClose={close} />}
    </section>
  );
}
