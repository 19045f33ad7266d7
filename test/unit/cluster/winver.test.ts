// The Windows build with its update build revision, from what winver.txt holds: CollectLogs' OSVersion
// line has revision 0; hnsight's collection adds `Build revision N` (the registry's UBR); `ver` prints
// `[Version a.b.c.d]`. Without either, the OSVersion line is all there is.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { COLLECT_COMMANDS } from '../../../services/live/collect-commands.ts';

const SRC = path.resolve(__dirname, '../../fixtures/foreign/ws2019-flannel-l2bridge-2020');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function buildOf(winver: string): Promise<string | undefined> {
  const d = await mkdtemp(path.join(tmpdir(), 'hnsight-winver-'));
  dirs.push(d);
  await cp(SRC, d, { recursive: true });
  await writeFile(path.join(d, 'winver.txt'), winver);
  return (await loadBundle(d)).meta.windowsBuild;
}

describe('winver.txt', () => {
  it('OSVersion alone: revision 0, as written', async () => {
    expect(await buildOf('Microsoft Windows NT 10.0.17763.0\r\n\r\n\r\n<No hotfix>\r\n')).toBe('10.0.17763.0');
  });
  it('with the registry UBR hnsight collects', async () => {
    expect(await buildOf('Microsoft Windows NT 10.0.17763.0\r\nBuild revision 5830\r\n\r\n<No hotfix>\r\n')).toBe('10.0.17763.5830');
  });
  it('with `ver` output of the same build', async () => {
    expect(await buildOf('Microsoft Windows NT 10.0.17763.0\r\nMicrosoft Windows [Version 10.0.17763.5830]\r\n')).toBe('10.0.17763.5830');
  });
  it('the collection reads the UBR from the registry', () => {
    const w = COLLECT_COMMANDS.find((c) => c.id === 'winver')!;
    expect(w.body).toContain("Get-ItemProperty 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion'");
    expect(w.body).toContain('"Build revision $($cv.UBR)"');
  });
});
