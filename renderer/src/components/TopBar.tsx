// The top bar: app name, the node and its facts, Open ▾, search (Ctrl+K) and the theme toggle.
import { Moon, Network, Search, Sun } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import { OpenMenu } from './OpenMenu.tsx';
import { NodeFacts } from './NodeFacts.tsx';

export function TopBar({ theme, systemDark }: { theme: 'light' | 'dark'; systemDark: boolean }) {
  const bundle = useApp((s) => s.bundle);
  const toggleTheme = useApp((s) => s.toggleTheme);
  const setPaletteOpen = useApp((s) => s.setPaletteOpen);
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
          <button type="button" className="search-trigger" onClick={() => setPaletteOpen(true)} data-testid="search-trigger" aria-keyshortcuts="Control+K">
            <Search size={14} aria-hidden />
            <span>Search IP, MAC, GUID, VIP, rule…</span>
            <kbd>{isMac ? '⌘K' : 'Ctrl+K'}</kbd>
          </button>
        )}
        <OpenMenu />
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
