// The desktop menu's commands (electron/main/menu.ts COMMANDS, sent as strings over IPC) and what each
// does in the page: the same store actions as the keys and buttons. 'connect' is the Connect to
// node… store's (store/collect-store.ts useConnectCommand). Pure: the store and the open actions are
// passed in, so a test can check that every command the menu sends does something.
import type { AppState } from '../store/types.ts';

export interface MenuCommandDeps {
  state: Pick<AppState, 'bundle' | 'openPaste' | 'setExportOpen' | 'toast' | 'setPaletteOpen' | 'setView' | 'toggleTheme' | 'setKeymapOpen'>;
  openFolder(): unknown;
  openZip(): unknown;
  openPath(path: string): unknown;
  fit(): void;
  systemDark: boolean;
}

/** Runs one menu command; false when the page does not know it. */
export function runMenuCommand(command: string, payload: { text?: string; path?: string } | undefined, d: MenuCommandDeps): boolean {
  const s = d.state;
  switch (command) {
    case 'open-folder':
      void d.openFolder();
      return true;
    case 'open-zip':
      void d.openZip();
      return true;
    case 'open-path':
      if (payload?.path) void d.openPath(payload.path);
      return true;
    case 'paste':
      s.openPaste(payload?.text || undefined);
      return true;
    case 'export':
      if (s.bundle) s.setExportOpen(true);
      else s.toast('info', 'Open a bundle to export a report about it.');
      return true;
    case 'find':
      s.setPaletteOpen(true);
      return true;
    case 'fit-graph':
      s.setView('topology');
      d.fit();
      return true;
    case 'toggle-dark-mode':
      s.toggleTheme(d.systemDark);
      return true;
    case 'keyboard-map':
      s.setKeymapOpen(true);
      return true;
    default:
      return false;
  }
}
