// Global keys and the Electron menu's commands. Both end in the same store actions, so the menu,
// the keyboard and the buttons behave the same. The keys are listed for people in shortcuts.ts (the
// keyboard map, ?).
import { useEffect } from 'react';
import { api } from '../api/index.ts';
import { appStore } from '../store/app-store.ts';
import { useOpenActions } from './useOpenActions.ts';
import { graphCommands } from '../graph/graph-commands.ts';
import { pasteFromClipboard } from '../paste/paste-from-clipboard.ts';
import { dialogStack } from '../components/dialog-stack.ts';
import { runMenuCommand } from './menu-command.ts';

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export function useShortcuts(systemDark: boolean) {
  const { openFolder, openZip, openPath } = useOpenActions();
  useEffect(() => {
    const run = (command: string, payload?: { text?: string; path?: string }) =>
      runMenuCommand(command, payload, { state: appStore.getState(), openFolder, openZip, openPath, fit: () => graphCommands.fit?.(), systemDark });
    const off = api.onCommand(run);
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        appStore.getState().setPaletteOpen(true);
        return;
      }
      if (mod && !e.altKey && e.key.toLowerCase() === 'e' && !e.shiftKey) {
        e.preventDefault();
        run('export', undefined);
        return;
      }
      // Paste output…; inside a text field Ctrl+Shift+V keeps its meaning (paste as plain text).
      if (mod && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'v' && !typingIn(e.target)) {
        e.preventDefault();
        pasteFromClipboard();
        return;
      }
      // Undo/redo of note edits; inside a text field the field's own undo applies.
      const z = e.key.toLowerCase() === 'z';
      const y = e.key.toLowerCase() === 'y';
      if (mod && !e.altKey && (z || y) && !typingIn(e.target) && appStore.getState().notesHistory) {
        e.preventDefault();
        if ((z && e.shiftKey) || (y && !e.shiftKey)) appStore.getState().redoNotes();
        else if (z) appStore.getState().undoNotes();
        return;
      }
      const s = appStore.getState();
      // An open dialog has the keys (Dialog.tsx closes the top one on Esc).
      if (dialogStack.isOpen() || s.paletteOpen || s.excerpt || s.openPathOpen || s.exportOpen || s.diffOpen || s.paste || s.keymapOpen || mod || e.altKey) return;
      // The packet walk: ←/→ (or [ / ]) step through the hops, Esc stops picking, then leaves the walk.
      const walkShown = !!s.walk && s.panel === 'walk' && s.inspectorOpen;
      if (e.key === 'Escape' && (s.picking || walkShown) && !(typingIn(e.target) && !s.picking)) {
        e.preventDefault();
        if (s.picking) s.setPicking(undefined);
        else s.clearWalk();
        return;
      }
      if (typingIn(e.target)) return;
      if (walkShown && (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === '[' || e.key === ']')) {
        e.preventDefault();
        s.stepHop(e.key === 'ArrowLeft' || e.key === '[' ? -1 : 1);
        return;
      }
      if (e.key === 'f' || e.key === 'F') {
        if (s.view === 'topology' && s.bundle) {
          e.preventDefault();
          graphCommands.fit?.();
        }
      } else if ((e.key === 'p' || e.key === 'P') && s.bundle) {
        // Hide or show the side panel: the graph gets the whole width, then the panel comes back as it was.
        e.preventDefault();
        s.togglePanel();
      } else if (e.key === '/' && s.bundle) {
        e.preventDefault();
        s.setPaletteOpen(true);
      } else if (e.key === '?') {
        e.preventDefault();
        s.setKeymapOpen(true);
      }
    };
    // Ctrl+V (or Edit ▸ Paste) anywhere but in a field: the text goes to Paste output…. The page gets
    // the text of a paste the user made without any clipboard permission.
    const onPaste = (e: ClipboardEvent) => {
      const s = appStore.getState();
      if (typingIn(e.target) || dialogStack.isOpen() || s.paletteOpen || s.excerpt || s.openPathOpen || s.exportOpen || s.diffOpen) return;
      const text = e.clipboardData?.getData('text/plain');
      if (!text) return;
      e.preventDefault();
      s.openPaste(text);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('paste', onPaste);
    return () => {
      off();
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('paste', onPaste);
    };
  }, [openFolder, openZip, openPath, systemDark]);
}
