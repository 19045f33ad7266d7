// A CNI config that the JSON reader cannot read is scanned line by line for its plugin "type". The
// type is the file's word, so it may be any name, including the names every JavaScript object has
// ("constructor", "toString"): only the types hnsight knows count, and a config naming another never
// crashes detection nor names a plugin.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from './helpers.ts';
import { detectPlatform } from '../../../analysis/platform/index.ts';
import { OBJECT_MEMBER_NAMES } from '../../helpers/object-member-names.ts';

const cut = (type: string) => `{\n  "cniVersion": "0.3.0",\n  "name": "cbr0",\n  "type": "${type}",\n  "delegate": {\n`;

describe('a cut CNI config naming a type hnsight does not know', () => {
  for (const type of [...OBJECT_MEMBER_NAMES, 'no-such-plugin']) {
    it(`"${type}": no CNI config evidence, no crash`, () => {
      const { model } = buildPlatform('flannel-host-gw', {}, {}, (p, t) => (p === 'net.d/10-flannel.conf' ? cut(type) : t));
      const p = detectPlatform(model);
      expect(p.plugin).toBe('flannel-host-gw');
      const fromConfig = [...p.evidence, ...p.conflicts].filter((e) => e.kind === 'cni-config' && e.says.includes(type));
      expect(fromConfig).toEqual([]);
    });
  }

  it('a known type in the same cut config still counts (the scan itself is unchanged)', () => {
    const { model } = buildPlatform('flannel-host-gw', {}, {}, (p, t) => (p === 'net.d/10-flannel.conf' ? cut('flannel') : t));
    const p = detectPlatform(model);
    expect([...p.evidence, ...p.conflicts].some((e) => e.kind === 'cni-config' && e.says.includes('"flannel"'))).toBe(true);
  });
});
