// The top bar: app name, the node and its facts, Open ▾, search (Ctrl+K), the keyboard map (?) and the
// theme toggle.
import { FileOutput, GitCompare, Keyboard, Moon, Network, Redo2, Search, Sun, Undo2 } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import { OpenMenu } from './OpenMenu.tsx';
import { NodeFacts } from './NodeFacts.tsx';

export function TopBar({ theme, systemDark }: { theme: 'light' | 'dark'; systemDark: boolean }) {
  const bundle = useApp((s) => s.bundle);
  const toggleTheme = useApp((s) => s.toggleTheme);
  const setPaletteOpen = useApp((s) => s.setPaletteOpen);
  const setExportOpen = useApp((s) => s.setExportOpen);
  const openCompare = useApp((s) => s.openCompare);
  const canUndo = useApp((s) => !!s.notesHistory?.past.length);
  const canRedo = useApp((s) => !!s.notesHistory?.future.length);
  const undo = useApp((s) => s.undoNotes);
  const redo = useApp((s) => s.redoNotes);
  const status = useApp((s) => s.notesStatus);
  const setKeymapOpen = useApp((s) => s.setKeymapOpen);
  const isMac = navigator.platform.toLowerCase().includes('mac');
  return (
    <header className="topbar">
      <div className="brand">
        <Network size={18} aria-hidden />
        <span>hnsight</span>
      </div>
      <div className="topbar-node">{bundle && <NodeFacts bundle={bundle} />}</div>
      <div className="topbar-actions">
        {bundle && (
          <button type="button" className="search-trigger" onClick={() => setPaletteOpen(true)} data-testid="search-trigger" aria-keyshortcuts="Control+K" title="Search IP, MAC, GUID, VIP, rule… (Ctrl+K)">
            <Search size={14} aria-hidden />
            <span className="st-long">Search IP, MAC, GUID, VIP, rule…</span>
            <span className="st-short">Search…</span>
            <kbd>{isMac ? '⌘K' : 'Ctrl+K'}</kbd>
          </button>
        )}
        {bundle && (
          <div className="report-actions" role="group" aria-label="Notes and report">
            <button type="button" className="btn icon" onClick={undo} disabled={!canUndo} aria-label="Undo the last note edit" title="Undo note edit (Ctrl+Z)" data-testid="notes-undo">
              <Undo2 size={15} aria-hidden />
            </button>
            <button type="button" className="btn icon" onClick={redo} disabled={!canRedo} aria-label="Redo the note edit" title="Redo (Ctrl+Shift+Z or Ctrl+Y)" data-testid="notes-redo">
              <Redo2 size={15} aria-hidden />
            </button>
            <span className={`notes-status ${status}`} data-testid="notes-status" aria-live="polite">
              {status === 'saving' ? 'saving…' : status === 'saved' ? 'saved' : status === 'error' ? 'not saved' : ''}
            </span>
            <button type="button" className="btn icon" onClick={() => openCompare()} aria-label="Compare with another bundle" title="Compare this bundle with another…" data-testid="compare-open">
              <GitCompare size={15} aria-hidden />
            </button>
            <button type="button" className="btn" onClick={() => setExportOpen(true)} title="Export a report (Ctrl+E)" aria-keyshortcuts="Control+E" data-testid="export-open">
              <FileOutput size={15} aria-hidden /> Export…
            </button>
          </div>
        )}
        <OpenMenu />
        <button type="button" className="btn icon" onClick={() => setKeymapOpen(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" aria-keyshortcuts="?" data-testid="keymap-open">
          <Keyboard size={16} aria-hidden />
        </button>
        <button
          type="button"
          className="btn icon"
          onClick={() => toggleTheme(systemDark)}
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          title={theme === 'dark' ? 'Light theme' : 'Dark theme'}
          data-testid="theme-toggle"
        >
          {theme === 'dark' ? <Sun size={16} aria-hidden /> : <Moon size={16} aria-hidden />}
        </button>
      </div>
    </header>
  );
}
