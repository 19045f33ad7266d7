import { afterAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { buildNode, writeBundle, bundleFiles } from '../../../tools/gen/index.ts';
import { SMALL, cleanupTemps, decode, tempDir } from './helpers.ts';

afterAll(cleanupTemps);

function readZip(path: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName.endsWith('/')) {
          out.set(e.fileName, Buffer.alloc(0));
          return zip.readEntry();
        }
        zip.openReadStream(e, (er, s) => {
          if (er || !s) return reject(er);
          const parts: Buffer[] = [];
          s.on('data', (c: Buffer) => parts.push(c));
          s.on('end', () => {
            out.set(e.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('zip variants', () => {
  it('flat: AKS <host>-<yyyyMMdd-HHmmss>_logs.zip, files at the root, AKS extras, no post-2024-07 files', async () => {
    const node = buildNode(SMALL);
    const dir = await tempDir();
    const res = await writeBundle(node, dir, { zip: 'flat' });
    expect(res.path).toMatch(/akswin000007-\d{8}-\d{6}_logs\.zip$/);
    const entries = await readZip(res.path);
    const names = [...entries.keys()];
    for (const f of ['network.txt', 'endpoint.txt', 'policy.txt', 'vfpOutput.txt', 'ports.txt', 'ip.txt', 'routes.txt', 'hnsdiag.txt', 'kubelet.log', 'kubeproxy.log', 'kubeclusterconfig.json', 'collect-windows-logs-output.log', 'adapters/']) {
      expect(names).toContain(f);
    }
    expect(names.some((n) => /^\d{8}-\d{6}-hnsdiag-list\.txt$/.test(n))).toBe(true);
    expect(names).not.toContain('windowsServices.txt');
    expect(names).not.toContain('hnsportpoolallocs.txt');
    expect(names.every((n) => !n.includes('/') || n.startsWith('adapters/'))).toBe(true);
    expect(names.filter((n) => !n.endsWith('/')).sort()).toEqual(res.entries.slice().sort());
    const hnsdiagList = [...entries.entries()].find(([n]) => n.endsWith('-hnsdiag-list.txt'))![1];
    expect(decode(hnsdiagList)).not.toMatch(/^\{/m);
    const transcript = entries.get('collect-windows-logs-output.log')!;
    expect([...transcript.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(decode(entries.get('network.txt')!)).toContain('"Name":  "cbr0"');
  });

  it('top-folder: every entry under one 8.3 folder; same files as a folder bundle', async () => {
    const node = buildNode(SMALL);
    const dir = await tempDir();
    const res = await writeBundle(node, dir, { zip: 'top-folder' });
    const names = [...(await readZip(res.path)).keys()];
    const top = names[0];
    expect(top).toMatch(/^[a-z0-5]{8}\.[a-z0-5]{3}\/$/);
    expect(names.every((n) => n.startsWith(top))).toBe(true);
    const files = names.filter((n) => !n.endsWith('/')).map((n) => n.slice(top.length));
    expect(files.sort()).toEqual(bundleFiles(node, {}).map((f) => f.path).sort());
    expect(files).toContain('windowsServices.txt');
  });
});
