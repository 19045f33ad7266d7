import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { runMenuCommand } from '../../../renderer/src/hooks/menu-command.ts';
import { COMMANDS, menuTemplate, type MenuContext } from '../../../electron/main/menu.ts';

function ctx(over: Partial<MenuContext> = {}): MenuContext {
  return { isMac: false, isDev: false, recent: [], liveCollection: false, send: vi.fn(), readClipboard: vi.fn(async () => 'Policy for port : …'), clearRecent: vi.fn(), about: vi.fn(), openReadme: vi.fn(), ...over };
}

function top(t: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const m = t.find((i) => i.label?.replace('&', '') === label);
  expect(m, label).toBeDefined();
  return m!.submenu as MenuItemConstructorOptions[];
}

function byId(items: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions {
  const i = items.find((x) => x.id === id);
  expect(i, id).toBeDefined();
  return i!;
}

function click(i: MenuItemConstructorOptions): void {
  (i.click as unknown as () => void)();
}

describe('menu', () => {
  it('has File, Edit, View, Window and Help', () => {
    const t = menuTemplate(ctx());
    expect(t.map((i) => i.label?.replace('&', '') ?? i.role)).toEqual(['File', 'Edit', 'View', 'windowMenu', 'Help']);
    expect(menuTemplate(ctx({ isMac: true }))[0].label).toBe('hnsight');
  });

  it('File: open folder / zip send commands, Connect to Node is disabled, Export and Quit exist', () => {
    const c = ctx();
    const file = top(menuTemplate(c), 'File');
    expect(byId(file, 'open-folder').accelerator).toBe('CmdOrCtrl+O');
    expect(byId(file, 'open-zip').accelerator).toBe('CmdOrCtrl+Shift+O');
    click(byId(file, 'open-folder'));
    click(byId(file, 'open-zip'));
    expect(c.send).toHaveBeenNthCalledWith(1, COMMANDS.openFolder);
    expect(c.send).toHaveBeenNthCalledWith(2, COMMANDS.openZip);
    expect(byId(file, 'connect')).toMatchObject({ label: 'Connect to Node…', enabled: false });
    expect(byId(file, 'export').accelerator).toBe('CmdOrCtrl+E');
    expect(byId(file, 'quit').role).toBe('quit');
  });

  it('File: Paste Output… reads the clipboard only when chosen and sends its text (none when it cannot be read)', async () => {
    const c = ctx();
    const item = byId(top(menuTemplate(c), 'File'), 'paste-output');
    expect(item).toMatchObject({ label: 'Paste Output…', accelerator: 'CmdOrCtrl+Shift+V' });
    expect(c.readClipboard).not.toHaveBeenCalled();
    click(item);
    expect(c.readClipboard).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(c.send).toHaveBeenCalledWith(COMMANDS.paste, { text: 'Policy for port : …' }));
    const unreadable = ctx({ readClipboard: vi.fn(async () => Promise.reject(new Error('no text'))) });
    click(byId(top(menuTemplate(unreadable), 'File'), 'paste-output'));
    await vi.waitFor(() => expect(unreadable.send).toHaveBeenCalledWith(COMMANDS.paste, { text: '' }));
  });

  it('Open Recent lists the bundles, opens one, and clears', () => {
    const c = ctx({ recent: [{ path: '/b/node1.zip', hostName: 'akswin000001' }, { path: '/b/R&D' }] });
    const recent = byId(top(menuTemplate(c), 'File'), 'open-recent').submenu as MenuItemConstructorOptions[];
    expect(recent[0].label).toBe('akswin000001 — /b/node1.zip');
    expect(recent[1].label).toBe('/b/R&&D');
    click(recent[0]);
    expect(c.send).toHaveBeenCalledWith(COMMANDS.openPath, { path: '/b/node1.zip' });
    const clear = recent.find((i) => i.label === 'Clear Recent')!;
    expect(clear.enabled).toBe(true);
    click(clear);
    expect(c.clearRecent).toHaveBeenCalled();
    const empty = byId(top(menuTemplate(ctx()), 'File'), 'open-recent').submenu as MenuItemConstructorOptions[];
    expect(empty[0]).toMatchObject({ label: 'No Recent Bundles', enabled: false });
    expect(empty.find((i) => i.label === 'Clear Recent')!.enabled).toBe(false);
  });

  it('View: Reload only in development; Fit Graph shows F without stealing the key; Find is Ctrl+K', () => {
    const prod = top(menuTemplate(ctx()), 'View');
    expect(prod.some((i) => i.role === 'reload' || i.role === 'toggleDevTools')).toBe(false);
    const dev = top(menuTemplate(ctx({ isDev: true })), 'View');
    expect(dev.some((i) => i.role === 'reload')).toBe(true);
    expect(byId(prod, 'fit-graph')).toMatchObject({ accelerator: 'F', registerAccelerator: false });
    expect(byId(prod, 'find').accelerator).toBe('CmdOrCtrl+K');
    expect(prod.map((i) => i.role).filter(Boolean)).toEqual(expect.arrayContaining(['zoomIn', 'zoomOut', 'resetZoom']));
  });

  it('Help: README, the keyboard map (? shown without stealing the key) and About', () => {
    const c = ctx();
    const help = top(menuTemplate(c), 'Help');
    click(byId(help, 'readme'));
    click(byId(help, 'about'));
    expect(c.openReadme).toHaveBeenCalled();
    expect(c.about).toHaveBeenCalled();
    expect(byId(help, 'keyboard-map')).toMatchObject({ accelerator: '?', registerAccelerator: false });
    click(byId(help, 'keyboard-map'));
    expect(c.send).toHaveBeenCalledWith(COMMANDS.keyboardMap);
  });

  it('sends only commands the page answers (renderer/src/hooks/menu-command.ts)', () => {
    // The names travel as strings over IPC: a renamed command would make its menu item do nothing.
    const state = { bundle: undefined, openPaste: vi.fn(), setExportOpen: vi.fn(), toast: vi.fn(), setPaletteOpen: vi.fn(), setView: vi.fn(), toggleTheme: vi.fn(), setKeymapOpen: vi.fn() };
    const deps = { state, openFolder: vi.fn(), openZip: vi.fn(), openPath: vi.fn(), fit: vi.fn(), systemDark: false };
    for (const c of Object.values(COMMANDS)) {
      if (c === COMMANDS.connect) continue; // the Connect to node… store's (useConnectCommand)
      expect(runMenuCommand(c, { path: '/b/node', text: 'x' }, deps), c).toBe(true);
    }
    expect(deps.openPath).toHaveBeenCalledWith('/b/node');
    expect(deps.fit).toHaveBeenCalled();
    expect(state.toggleTheme).toHaveBeenCalledWith(false);
    expect(state.setKeymapOpen).toHaveBeenCalledWith(true);
    expect(runMenuCommand('fit', undefined, deps)).toBe(false);
  });
});
