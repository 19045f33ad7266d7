// The left rail: the views, with the Files view's badge showing broken files at a glance, and the
// node's headline counts underneath.
import { Share2, Table2, FileWarning, Footprints, ListChecks, Timer, Grid3x3 } from 'lucide-react';
import { Network } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import type { AppState } from '../store/types.ts';
import type { PanelKey, ViewKey } from '../store/ui.ts';
import { formatCount, plural } from '../lib/format.ts';
import { severityCounts } from '../findings/model.ts';

/** A rail entry: a view, or the topology with a panel beside it (the walk, the findings). */
type RailKey = ViewKey | 'walk' | 'findings';

const TABS: { key: RailKey; label: string; icon: typeof Share2 }[] = [
  { key: 'topology', label: 'Topology', icon: Share2 },
  { key: 'findings', label: 'Findings', icon: ListChecks },
  { key: 'walk', label: 'Packet walk', icon: Footprints },
  { key: 'reach', label: 'Reachability', icon: Grid3x3 },
  { key: 'services', label: 'Services', icon: Network },
  { key: 'inventory', label: 'Inventory', icon: Table2 },
  { key: 'files', label: 'Files & issues', icon: FileWarning },
  { key: 'timeline', label: 'CNI timeline', icon: Timer },
];

export function railKey(s: Pick<AppState, 'view' | 'panel' | 'inspectorOpen'>): RailKey {
  if (s.view === 'topology' && s.inspectorOpen && (s.panel === 'walk' || s.panel === 'findings')) return s.panel;
  return s.view;
}

export function ViewTabs() {
  const view = useApp(railKey);
  const setViewKey = useApp((s) => s.setView);
  const setPanel = useApp((s) => s.setPanel);
  const panel = useApp((s) => s.panel);
  const setView = (k: RailKey) => {
    if (k === 'walk' || k === 'findings') setPanel(k as PanelKey);
    else {
      // Back to the plain topology: the panel beside it is the inspector again.
      if (k === 'topology' && panel !== 'inspector') setPanel('inspector');
      setViewKey(k);
    }
  };
  const bundle = useApp((s) => s.bundle);
  const findings = useApp((s) => s.findings);
  const timelines = useApp((s) => s.timelines);
  const fc = severityCounts(findings);
  const issueFiles = bundle?.files.filter((f) => f.errors || f.warnings).length ?? 0;
  const onKeyDown = (e: React.KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.key === view);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = TABS[(i + (e.key === 'ArrowDown' ? 1 : TABS.length - 1)) % TABS.length];
      setView(next.key);
      document.getElementById(`tab-${next.key}`)?.focus();
    }
  };
  const c = bundle?.counts;
  return (
    <nav className="rail" aria-label="Views">
      <div role="tablist" aria-orientation="vertical" onKeyDown={onKeyDown}>
        {TABS.map((t) => {
          const Icon = t.icon;
          const on = view === t.key;
          return (
            <button
              key={t.key}
              id={`tab-${t.key}`}
              type="button"
              role="tab"
              aria-selected={on}
              tabIndex={on ? 0 : -1}
              className={`rail-tab ${on ? 'active' : ''}`}
              onClick={() => setView(t.key)}
              data-testid={`view-${t.key}`}
            >
              <Icon size={16} aria-hidden />
              <span>{t.label}</span>
              {t.key === 'files' && bundle && (bundle.filesBroken > 0 || issueFiles > 0) && (
                <span className={`badge ${bundle.filesBroken ? 'error' : 'warning'}`} title={`${bundle.filesBroken} broken, ${issueFiles} with issues`}>
                  {bundle.filesBroken || issueFiles}
                </span>
              )}
              {t.key === 'findings' && findings && (
                <span className="rail-sev" data-testid="rail-findings">
                  {fc.error > 0 && (
                    <span className="badge error" title={`${fc.error} error${fc.error === 1 ? '' : 's'}`}>
                      {fc.error}
                    </span>
                  )}
                  {fc.warning > 0 && (
                    <span className="badge warning" title={`${fc.warning} warning${fc.warning === 1 ? '' : 's'}`}>
                      {fc.warning}
                    </span>
                  )}
                  {fc.error + fc.warning === 0 && (
                    <span className="badge ok" title="No errors or warnings">
                      0
                    </span>
                  )}
                </span>
              )}
              {t.key === 'timeline' && timelines && timelines.length > 0 && (
                <span className={`badge ${timelines.some((x) => x.outcome === 'failed') ? 'error' : ''}`} title={plural(timelines.length, 'sandbox', 'sandboxes')}>
                  {timelines.length}
                </span>
              )}
            </button>
          );
        })}
      </div>
      {c && (
        <dl className="rail-counts">
          <div>
            <dt>Pods (local EPs)</dt>
            <dd>{formatCount(c.localEndpoints)}</dd>
          </div>
          <div>
            <dt>Remote EPs</dt>
            <dd>{formatCount(c.remoteEndpoints)}</dd>
          </div>
          <div>
            <dt>Load balancers</dt>
            <dd>{formatCount(c.loadBalancers)}</dd>
          </div>
          <div>
            <dt>VFP ports</dt>
            <dd>{formatCount(c.vfpPorts)}</dd>
          </div>
          <div>
            <dt>VFP rules</dt>
            <dd>{formatCount(c.vfpRules)}</dd>
          </div>
          <div>
            <dt>IPv4 routes</dt>
            <dd>{formatCount(c.ipv4Routes)}</dd>
          </div>
        </dl>
      )}
    </nav>
  );
}
