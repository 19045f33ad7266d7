import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CSP_DIRECTIVES, CSP_HEADER, CSP_META, isAllowedExternalUrl, isPermissionAllowed, REMOTE_URL_PATTERNS, windowOptions } from '../../../electron/main/security.ts';

const repo = path.resolve(import.meta.dirname, '../../..');

describe('window options', () => {
  const o = windowOptions({ preload: '/app/dist/electron/preload.cjs', devTools: false });
  const wp = o.webPreferences!;

  it('isolates and sandboxes the renderer, without Node', () => {
    expect(wp.contextIsolation).toBe(true);
    expect(wp.sandbox).toBe(true);
    expect(wp.nodeIntegration).toBe(false);
    expect(wp.nodeIntegrationInWorker).toBe(false);
    expect(wp.nodeIntegrationInSubFrames).toBe(false);
    expect(wp.webSecurity).toBe(true);
    expect(wp.allowRunningInsecureContent).toBe(false);
    expect(wp.webviewTag).toBe(false);
    expect(wp.experimentalFeatures).toBe(false);
    expect(wp.navigateOnDragDrop).toBe(false);
    expect(wp.preload).toBe('/app/dist/electron/preload.cjs');
    expect(wp.devTools).toBe(false);
    expect(o.show).toBe(false);
  });

  it('keeps the flags whatever bounds are given', () => {
    const b = windowOptions({ preload: 'p', devTools: true, bounds: { x: 1, y: 2, width: 900, height: 600 } });
    expect(b).toMatchObject({ x: 1, y: 2, width: 900, height: 600, webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false } });
  });

  it('is used by the main process, which never weakens it', () => {
    const src = readFileSync(path.join(repo, 'electron/main/index.ts'), 'utf8');
    expect(src).toMatch(/windowOptions\(/);
    expect(src).not.toMatch(/nodeIntegration\s*:\s*true|contextIsolation\s*:\s*false|sandbox\s*:\s*false|webSecurity\s*:\s*false/);
    expect(src).toMatch(/app\.enableSandbox\(\)/);
    expect(src).toMatch(/setWindowOpenHandler/);
    expect(src).toMatch(/'will-navigate'/);
    expect(src).toMatch(/setPermissionRequestHandler/);
    expect(src).toMatch(/requestSingleInstanceLock/);
  });
});

describe('external links', () => {
  it('allows https only', () => {
    expect(isAllowedExternalUrl('https://learn.microsoft.com/en-us/virtualization/windowscontainers/')).toBe(true);
    for (const u of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-settings:network', 'https://user:pw@example.com/', 'not a url', '']) {
      expect(isAllowedExternalUrl(u), u).toBe(false);
    }
  });
});

describe('permissions', () => {
  const own = (u: string | undefined) => u === 'file:///app/index.html';
  it('denies everything but sanitized clipboard writes from our page', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'file:///app/index.html', own)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/', own)).toBe(false);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fileSystem', 'hid', 'usb', 'unknown']) {
      expect(isPermissionAllowed(p, 'file:///app/index.html', own), p).toBe(false);
    }
  });

  it('cancels every remote request scheme', () => {
    expect(REMOTE_URL_PATTERNS).toEqual(expect.arrayContaining(['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*']));
  });
});

describe('CSP', () => {
  it('is strict: nothing by default, no inline or eval scripts, no remote sources', () => {
    expect(CSP_META).toMatch(/^default-src 'none'; /);
    expect(CSP_META).toContain("script-src 'self';");
    expect(CSP_META).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:|\*/);
    // frame-ancestors is ignored in a meta tag; it belongs to the header only.
    expect(CSP_META).not.toContain('frame-ancestors');
    expect(CSP_HEADER).toContain("frame-ancestors 'none'");
  });

  it('is present in the renderer page with every directive', () => {
    const html = path.join(repo, 'renderer/index.html');
    if (!existsSync(html)) return;
    const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(readFileSync(html, 'utf8'));
    expect(m, 'renderer/index.html has no CSP meta tag').not.toBeNull();
    const directives = m![1].split(';').map((d) => d.trim()).filter(Boolean);
    for (const d of CSP_DIRECTIVES) expect(directives).toContain(d);
  });
});
