// The left rail: the views, with the Files view's badge showing broken files at a glance, and the
// node's headline counts underneath.
import { Share2, Table2, FileWarning } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import type { ViewKey } from '../store/ui.ts';
import { formatCount } from '../lib/format.ts';

const TABS: { key: ViewKey; label: string; icon: typeof Share2 }[] = [
  { key: 'topology', label: 'Topology', icon: Share2 },
  { key: 'inventory', label: 'Inventory', icon: Table2 },
  { key: 'files', label: 'Files & issues', icon: FileWarning },
];

export function ViewTabs() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const bundle = useApp((s) => s.bundle);
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
