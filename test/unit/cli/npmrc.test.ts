// Install scripts of dependencies are refused by configuration, not by a policy npm only warns about
// (.npmrc; issue #28). npm itself is asked what it will do in this folder, and every package of the
// lock file that has an install script is one package.json's allowScripts reviewed.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const repo = path.resolve(__dirname, '../../..');

describe('.npmrc', () => {
  it('makes npm ignore install scripts in this project', () => {
    const value = execFileSync('npm', ['config', 'get', 'ignore-scripts'], { cwd: repo, encoding: 'utf8', env: { ...process.env, npm_config_ignore_scripts: undefined } }).trim();
    expect(value).toBe('true');
  });

  it('covers every package with an install script: each is reviewed (denied) in allowScripts', () => {
    const lock = JSON.parse(readFileSync(path.join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, v]) => v.hasInstallScript)
      .map(([k]) => k.replace(/^.*node_modules\//, ''));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(pkg.allowScripts[name], name).toBe(false);
  });
});
