// The app shell: top bar, views rail, the current view, the inspector, and the overlays (loading,
// errors, summary, palette, dialogs, toasts). Which of those show follows from the store.
import { useEffect } from 'react';
import { PanelRightOpen } from 'lucide-react';
import { useApp } from './store/app-store.ts';
import { shell } from './store/shell-selectors.ts';
import { appStore } from './store/app-store.ts';
import { useTheme } from './hooks/useTheme.ts';
import { useSystemDark } from './hooks/useSystemDark.ts';
import { RootMarks } from './hooks/useAppPhase.ts';
import { useShortcuts } from './hooks/useShortcuts.ts';
import { useDropOpen } from './hooks/useDropOpen.ts';
import { TopBar } from './components/TopBar.tsx';
import { Toasts } from './components/Toasts.tsx';
import { Splitter } from './components/Splitter.tsx';
import { OpenPathDialog } from './components/OpenPathDialog.tsx';
import { ExcerptDialog } from './components/ExcerptDialog.tsx';
import { ConnectDialog } from './components/ConnectDialog.tsx';
import { useConnectCommand } from './store/collect-store.ts';
import { EmptyState } from './views/EmptyState.tsx';
import { LoadingView } from './views/LoadingView.tsx';
import { ErrorState } from './views/ErrorState.tsx';
import { SummaryDialog } from './views/SummaryDialog.tsx';
import { ViewTabs } from './views/ViewTabs.tsx';
import { TopologyView } from './views/TopologyView.tsx';
import { InventoryView } from './views/InventoryView.tsx';
import { FilesView } from './views/FilesView.tsx';
import { SidePanel } from './components/SidePanel.tsx';
import { TimelineView } from './findings/TimelineView.tsx';
import { ReachView } from './reach/ReachView.tsx';
import { ServicesView } from './services-table/ServicesView.tsx';
import { CommandPalette } from './palette/CommandPalette.tsx';
import { ExportDialog } from './report/ExportDialog.tsx';
import { CompareDialog } from './diff/CompareDialog.tsx';
import { PasteDialog } from './paste/PasteDialog.tsx';
import { ClusterWorkspace } from './cluster/ClusterWorkspace.tsx';
import { OpenClusterDialog } from './cluster/OpenClusterDialog.tsx';
import { clusterStore, useCluster } from './cluster/cluster-store.ts';
import { KeyboardMapDialog } from './components/KeyboardMapDialog.tsx';
import { onAccessLost } from './api/access-lost.ts';
import { useViewportWidth } from './hooks/useViewportWidth.ts';
import { maxPanelWidth, MIN_PANEL } from './store/panel-size.ts';

let started = false;

function Workspace() {
  const view = useApp(shell.view);
  const inspectorOpen = useApp(shell.inspectorOpen);
  const setWidth = useApp(shell.setInspectorWidth);
  const setOpen = useApp(shell.setInspectorOpen);
  // A window made narrower than when the width was chosen narrows the panel with it.
  const max = maxPanelWidth(useViewportWidth());
  const width = Math.min(useApp(shell.inspectorWidth), max);
  return (
    <div className="workspace" style={{ ['--insp-w' as string]: inspectorOpen ? `${width}px` : '0px' }}>
      <ViewTabs />
      <main className="view" aria-label={view}>
        {/* The topology stays mounted: leaving it must not throw away a layout that took seconds. */}
        <div className={`view-pane ${view === 'topology' ? '' : 'hidden'}`}>
          <TopologyView />
        </div>
        {view === 'inventory' && <InventoryView />}
        {view === 'files' && <FilesView />}
        {view === 'timeline' && <TimelineView />}
        {view === 'reach' && <ReachView />}
        {view === 'services' && <ServicesView />}
        {!inspectorOpen && (
          <button type="button" className="btn small reopen-inspector" onClick={() => setOpen(true)} aria-label="Show the side panel" title="Show the side panel (P)" aria-keyshortcuts="P" data-testid="panel-show">
            <PanelRightOpen size={14} aria-hidden /> Panel
          </button>
        )}
      </main>
      {inspectorOpen && (
        <>
          <Splitter width={width} min={MIN_PANEL} max={max} onResize={setWidth} onCollapse={() => setOpen(false)} />
          <SidePanel />
        </>
      )}
    </div>
  );
}

export function App() {
  const theme = useTheme();
  const systemDark = useSystemDark();
  const phase = useApp(shell.phase);
  const bundle = useApp(shell.bundle);
  const job = useApp(shell.job);
  const fatal = useApp(shell.fatal);
  const initialized = useApp(shell.initialized);
  const dropping = useDropOpen();
  useShortcuts(systemDark);
  useConnectCommand();

  // Browser mode: a server that no longer accepts this tab is said once, as the error screen.
  useEffect(() => onAccessLost((message) => appStore.getState().accessLost(message)), []);

  useEffect(() => {
    // StrictMode runs effects twice in development; the backend must see one auto-open, not two.
    if (started) return;
    started = true;
    // A folder of bundles the app was started with opens as a cluster (renderer/src/cluster).
    void appStore.getState().init().then(() => clusterStore.getState().initFrom(appStore.getState().info));
  }, []);
  const cluster = useCluster((s) => !!s.opened);
  const clusterOpening = useCluster((s) => s.opening);

  const loading = job?.state === 'loading';
  return (
    <div className={`app phase-${phase}`}>
      <RootMarks />
      <TopBar theme={theme} systemDark={systemDark} />
      <div className="app-body">
        {cluster ? <ClusterWorkspace /> : bundle ? <Workspace /> : initialized && !fatal && !loading && !clusterOpening ? <EmptyState /> : <div className="blank" />}
        {loading && <LoadingView />}
        {!loading && fatal && <ErrorState />}
        {!initialized && !loading && (
          <div className="center-overlay">
            <span className="spinner" aria-label="Starting" />
          </div>
        )}
      </div>
      {dropping && (
        <div className="drop-overlay" aria-hidden data-testid="drop-overlay">
          <div>{dropping === 'text' ? 'Drop to paste' : 'Drop to open'}</div>
        </div>
      )}
      <SummaryDialog />
      <CommandPalette />
      <OpenPathDialog />
      <ExcerptDialog />
      <ConnectDialog />
      <ExportDialog />
      <CompareDialog />
      <PasteDialog />
      <OpenClusterDialog />
      <KeyboardMapDialog />
      <Toasts />
    </div>
  );
}
