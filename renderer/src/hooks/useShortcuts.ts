// Global keys and the Electron menu's commands. Both end in the same store actions, so the menu,
// the keyboard and the buttons behave the same.
import { useEffect } from 'react';
import { api } from '../api/index.ts';
import { appStore } from '../store/app-store.ts';
import { useOpenActions } from './useOpenActions.ts';

/** The topology view registers its fit function here; 'fit' and F call it. */
export const graphCommands: { fit?: () => void } = {};

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export function useShortcuts(systemDark: boolean) {
  const { openFolder, openZip, openPath } = useOpenActions();
  useEffect(() => {
    const run = (command: string) => {
      const s = appStore.getState();
      if (command === 'open-folder') void openFolder();
      else if (command === 'open-zip') void openZip();
      else if (command.startsWith('open-recent:')) void openPath(command.slice('open-recent:'.length));
      else if (command === 'export') s.toast('info', 'Export is coming with the report issue.');
      else if (command === 'find') s.setPaletteOpen(true);
      else if (command === 'fit') {
        s.setView('topology');
        graphCommands.fit?.();
      } else if (command === 'toggle-theme') s.toggleTheme(systemDark);
    };
    const off = api.onCommand(run);
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        appStore.getState().setPaletteOpen(true);
        return;
      }
      if (typingIn(e.target) || mod || e.altKey) return;
      const s = appStore.getState();
      if (s.paletteOpen || s.excerpt || s.openPathOpen) return;
      if (e.key === 'f' || e.key === 'F') {
        if (s.view === 'topology' && s.bundle) {
          e.preventDefault();
          graphCommands.fit?.();
        }
      } else if (e.key === '/' && s.bundle) {
        e.preventDefault();
        s.setPaletteOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      off();
      window.removeEventListener('keydown', onKey);
    };
  }, [openFolder, openZip, openPath, systemDark]);
}
