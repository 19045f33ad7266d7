// The application menu as a template. No runtime 'electron' import: index.ts builds it with
// Menu.buildFromTemplate, tests check its structure.
import type { MenuItemConstructorOptions } from 'electron';

/** Commands sent to the renderer on `hnsight:command` (the preload's onCommand). */
export const COMMANDS = {
  openFolder: 'open-folder', // renderer: pickBundle({ kind: 'folder' }) then openBundle
  openZip: 'open-zip', // renderer: pickBundle({ kind: 'zip' }) then openBundle
  openPath: 'open-path', // payload { path }: renderer calls openBundle({ path })
  export: 'export',
  find: 'find',
  fitGraph: 'fit-graph',
  toggleDarkMode: 'toggle-dark-mode',
  connect: 'connect', // renderer: opens the Connect to node… dialog
  paste: 'paste', // payload { text }: the clipboard's text; renderer: opens the Paste output… dialog with it
  keyboardMap: 'keyboard-map', // renderer: opens the keyboard map
} as const;
export type Command = (typeof COMMANDS)[keyof typeof COMMANDS];

export interface MenuContext {
  isMac: boolean;
  isDev: boolean;
  /** Recent bundles, newest first. */
  recent: { path: string; hostName?: string }[];
  send(command: Command, payload?: { path: string } | { text: string }): void;
  /** The clipboard's text, read when the user chooses Paste Output… (the page itself may not read it). */
  readClipboard(): Promise<string>;
  clearRecent(): void;
  about(): void;
  openReadme(): void;
  /** Live collection is available: Connect to Node… is enabled and opens the renderer's dialog. */
  liveCollection: boolean;
}

const MAX_RECENT_ITEMS = 10;

function recentLabel(r: { path: string; hostName?: string }): string {
  // '&' is a mnemonic marker in Windows/Linux menus.
  const p = r.path.replace(/&/g, '&&');
  return r.hostName ? `${r.hostName.replace(/&/g, '&&')} — ${p}` : p;
}

/** Opens the page's Paste output… dialog with the clipboard's text (empty when it cannot be read). */
async function pasteOutput(ctx: MenuContext): Promise<void> {
  let text = '';
  try {
    text = await ctx.readClipboard();
  } catch {
    // Nothing readable on the clipboard: the dialog opens empty and Ctrl+V still works in it.
  }
  ctx.send(COMMANDS.paste, { text });
}

export function menuTemplate(ctx: MenuContext): MenuItemConstructorOptions[] {
  const recentItems: MenuItemConstructorOptions[] = ctx.recent.slice(0, MAX_RECENT_ITEMS).map((r) => ({
    label: recentLabel(r),
    click: () => ctx.send(COMMANDS.openPath, { path: r.path }),
  }));
  const openRecent: MenuItemConstructorOptions[] = [
    ...(recentItems.length ? recentItems : [{ label: 'No Recent Bundles', enabled: false }]),
    { type: 'separator' },
    { label: 'Clear Recent', enabled: recentItems.length > 0, click: () => ctx.clearRecent() },
  ];

  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { id: 'open-folder', label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => ctx.send(COMMANDS.openFolder) },
      { id: 'open-zip', label: 'Open Zip…', accelerator: 'CmdOrCtrl+Shift+O', click: () => ctx.send(COMMANDS.openZip) },
      { id: 'open-recent', label: 'Open Recent', submenu: openRecent },
      { id: 'paste-output', label: 'Paste Output…', accelerator: 'CmdOrCtrl+Shift+V', click: () => void pasteOutput(ctx) },
      { type: 'separator' },
      { id: 'connect', label: 'Connect to Node…', accelerator: 'CmdOrCtrl+Shift+N', enabled: ctx.liveCollection, click: () => ctx.send(COMMANDS.connect) },
      { type: 'separator' },
      { id: 'export', label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => ctx.send(COMMANDS.export) },
      ...(ctx.isMac ? [] : [{ type: 'separator' } as const, { id: 'quit', role: 'quit', label: 'Quit', accelerator: 'CmdOrCtrl+Q' } as const]),
    ],
  };

  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(ctx.isDev ? [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, { type: 'separator' } as const] : []),
      // A bare-key accelerator would steal the key from text fields: shown, not registered; the
      // renderer handles F outside inputs.
      { id: 'fit-graph', label: 'Fit Graph', accelerator: 'F', registerAccelerator: false, click: () => ctx.send(COMMANDS.fitGraph) },
      { id: 'find', label: 'Find…', accelerator: 'CmdOrCtrl+K', click: () => ctx.send(COMMANDS.find) },
      { id: 'toggle-dark-mode', label: 'Toggle Dark Mode', click: () => ctx.send(COMMANDS.toggleDarkMode) },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    label: '&Help',
    submenu: [
      { id: 'readme', label: 'hnsight README', click: () => ctx.openReadme() },
      // A bare-key accelerator would steal the key from text fields: shown, not registered.
      { id: 'keyboard-map', label: 'Keyboard Shortcuts', accelerator: '?', registerAccelerator: false, click: () => ctx.send(COMMANDS.keyboardMap) },
      ...(ctx.isMac ? [] : [{ type: 'separator' } as const, { id: 'about', label: 'About hnsight', click: () => ctx.about() }]),
    ],
  };

  const macApp: MenuItemConstructorOptions = {
    label: 'hnsight',
    submenu: [
      { id: 'about', label: 'About hnsight', click: () => ctx.about() },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { id: 'quit', role: 'quit' },
    ],
  };

  return [...(ctx.isMac ? [macApp] : []), file, edit, view, { role: 'windowMenu' }, help];
}
