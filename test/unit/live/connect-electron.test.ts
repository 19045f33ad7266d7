// The desktop shell's half of Connect to Node…: the File menu item is enabled and sends 'connect'.
import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { COMMANDS, menuTemplate, type MenuContext } from '../../../electron/main/menu.ts';

function ctx(over: Partial<MenuContext> = {}): MenuContext {
  return { isMac: false, isDev: false, recent: [], liveCollection: true, send: vi.fn(), readClipboard: vi.fn(async () => ''), clearRecent: vi.fn(), about: vi.fn(), openReadme: vi.fn(), ...over };
}

describe('File → Connect to Node…', () => {
  it('is enabled with live collection and sends the connect command', () => {
    const c = ctx();
    const file = menuTemplate(c).find((m) => m.label === '&File')!.submenu as MenuItemConstructorOptions[];
    const item = file.find((i) => i.id === 'connect')!;
    expect(item).toMatchObject({ label: 'Connect to Node…', enabled: true });
    (item.click as () => void)();
    expect(c.send).toHaveBeenCalledWith(COMMANDS.connect);
    expect(COMMANDS.connect).toBe('connect');
  });
});
