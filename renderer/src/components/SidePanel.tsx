// The panel right of the view: the inspector, the packet walk or the findings, one at a time, with
// tabs to switch and a button to hide it. Whatever it shows, the graph stays beside it.
import { memo } from 'react';
import { Footprints, ListChecks, PanelRightClose, SquareMousePointer } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import type { PanelKey } from '../store/ui.ts';
import { InspectorPanel } from '../inspector/InspectorPanel.tsx';
import { WalkPanel } from '../walk/WalkPanel.tsx';
import { FindingsPanel } from '../findings/FindingsPanel.tsx';
import { severityCounts } from '../findings/model.ts';

const TABS: { key: PanelKey; label: string; icon: typeof Footprints }[] = [
  { key: 'inspector', label: 'Inspector', icon: SquareMousePointer },
  { key: 'walk', label: 'Packet walk', icon: Footprints },
  { key: 'findings', label: 'Findings', icon: ListChecks },
];

// Memoized (no props): the shell's re-renders (a resize) do not redraw what the panel shows.
export const SidePanel = memo(function SidePanel() {
  const panel = useApp((s) => s.panel);
  const setPanel = useApp((s) => s.setPanel);
  const setOpen = useApp((s) => s.setInspectorOpen);
  const findings = useApp((s) => s.findings);
  const walking = useApp((s) => !!s.walk);
  const c = severityCounts(findings);
  return (
    <aside className="inspector side-panel" id="side-panel" aria-label="Side panel" data-testid="side-panel">
      <div className="panel-tabs" role="tablist" aria-label="Side panel">
        {TABS.map((t) => {
          const Icon = t.icon;
          const on = panel === t.key;
          return (
            <button key={t.key} type="button" role="tab" aria-selected={on} className={`panel-tab ${on ? 'active' : ''}`} onClick={() => setPanel(t.key)} data-testid={`panel-${t.key}`}>
              <Icon size={14} aria-hidden />
              <span>{t.label}</span>
              {t.key === 'findings' && c.error + c.warning > 0 && <span className={`badge ${c.error ? 'error' : 'warning'}`}>{c.error + c.warning}</span>}
              {t.key === 'walk' && walking && <span className="dot-on" aria-label="a walk is shown" />}
            </button>
          );
        })}
        <button type="button" className="btn ghost small icon panel-hide" onClick={() => setOpen(false)} aria-label="Hide the side panel" title="Hide the panel (P)" aria-keyshortcuts="P" data-testid="panel-hide">
          <PanelRightClose size={15} aria-hidden />
        </button>
      </div>
      {panel === 'inspector' && <InspectorPanel />}
      {panel === 'walk' && <WalkPanel />}
      {panel === 'findings' && <FindingsPanel />}
    </aside>
  );
});
