import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
// js-yaml is what electron-builder itself reads its YAML config with.
const yaml = require('js-yaml') as { load(text: string): unknown };
const fuses = require('@electron/fuses') as {
  FuseV1Options: Record<string, number>;
  getCurrentFuseWire(p: string): Promise<Record<string, unknown>>;
};

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  afterPack: string;
  linux: { target: string[] };
  win: { target: string[] };
  mac: { target: string[] };
}

const config = yaml.load(readFileSync(path.join(repo, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('electron-builder config', () => {
  it('names the app and ships dist/, package.json and the demo bundles', () => {
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.productName).toBe('hnsight');
    expect(config.files).toEqual(expect.arrayContaining(['dist/**/*', 'package.json']));
    expect(config.extraResources).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'assets/demo', to: 'demo' })]));
    expect(config.asarUnpack).toContain('dist/electron/parse-worker.mjs');
    expect(config.asarUnpack).toContain('dist/electron/findings-worker.mjs');
    expect(config.asarUnpack).toContain('dist/electron/reach-worker.mjs');
    for (const r of config.extraResources) expect(existsSync(path.join(repo, r.from)), r.from).toBe(true);
  });

  it('builds AppImage and deb, nsis, dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('has the fuse-flipping afterPack hook', () => {
    expect(config.afterPack).toBe('./build/afterPack.cjs');
    const hook = require(path.join(repo, config.afterPack));
    expect(typeof hook).toBe('function');
    expect(hook.FUSES).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      OnlyLoadAppFromAsar: true,
      EnableEmbeddedAsarIntegrityValidation: true,
      EnableCookieEncryption: true,
    });
    for (const name of Object.keys(hook.FUSES)) expect(fuses.FuseV1Options[name], name).toBeTypeOf('number');
  });

  it('finds the binary per platform', () => {
    const hook = require(path.join(repo, config.afterPack));
    const packager = { appInfo: { productFilename: 'hnsight' }, executableName: 'hnsight' };
    expect(hook.electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'linux', packager })).toBe(path.join('/o', 'hnsight'));
    expect(hook.electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'win32', packager })).toBe(path.join('/o', 'hnsight.exe'));
    expect(hook.electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'darwin', packager })).toBe(path.join('/o', 'hnsight.app'));
  });

  it('flips the fuses of a (fake) Linux binary', async () => {
    const hook = require(path.join(repo, config.afterPack));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-fuses-'));
    try {
      // A binary's fuse wire: sentinel, version 1, length 8, then one byte per fuse ('1' on, '0' off).
      const wire = Buffer.concat([Buffer.from('\0\0junk'), Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, 8]), Buffer.from('10110001'), Buffer.from('junk\0')]);
      const out = path.join(dir, 'linux-unpacked');
      mkdirSync(out);
      writeFileSync(path.join(out, 'hnsight'), wire);
      const log = console.log;
      console.log = () => {};
      try {
        await hook({ appOutDir: out, electronPlatformName: 'linux', arch: 1, packager: { executableName: 'hnsight', appInfo: { productFilename: 'hnsight' } } });
      } finally {
        console.log = log;
      }
      const state = await fuses.getCurrentFuseWire(path.join(out, 'hnsight'));
      const O = fuses.FuseV1Options;
      const on = 49;
      const off = 48;
      expect(state[O.RunAsNode]).toBe(off);
      expect(state[O.EnableNodeOptionsEnvironmentVariable]).toBe(off);
      expect(state[O.EnableNodeCliInspectArguments]).toBe(off);
      expect(state[O.OnlyLoadAppFromAsar]).toBe(on);
      expect(state[O.EnableEmbeddedAsarIntegrityValidation]).toBe(on);
      expect(state[O.EnableCookieEncryption]).toBe(on);
      // Untouched: file:// keeps its privileges (the UI is loaded from it).
      expect(state[O.GrantFileProtocolExtraPrivileges]).toBe(on);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
