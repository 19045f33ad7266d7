// writeBundle: render a GeneratedNode into a CollectLogs folder or zip, streaming every file through
// a WriteStream in ~1 MB chunks (vfpOutput.txt of a big node is hundreds of MB and is never held as
// one string).

import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import yazl from 'yazl';
import type { GeneratedNode } from './types.ts';
import { endpointTxt, namespacesTxt, networkDetailedTxt, networkTxt, policyTxt, portPoolAllocsTxt } from './files/hns.ts';
import { hnsdiagTxt } from './files/hnsdiag.ts';
import { ipTxt } from './files/ip.ts';
import { routesTxt } from './files/routes.ts';
import { portsTxt, vfpOutputTxt } from './files/vfp.ts';
import {
  adapterIntFiles,
  arpTxt,
  containersTxt,
  dynamicPortRangeTxt,
  excludedPortRangeTxt,
  hcsdiagTxt,
  kubeClusterConfigJson,
  kubeletLog,
  kubeproxyLog,
  mtuTxt,
  netAdapterTxt,
  reservedPortsTxt,
  servicesCsv,
  transcriptLog,
  vswitchForwardingTxt,
  windowsServicesTxt,
  winverTxt,
} from './files/extras.ts';
import { platformSideFiles } from './files/side.ts';

export type Encoding = 'utf16le-bom' | 'utf8' | 'utf8-bom';
export type Eol = 'crlf' | 'lf';
export type ZipLayout = 'flat' | 'top-folder';

export interface WriteOptions {
  /** Encoding of the files PowerShell 5.1 wrote with `>`/`>>` (UTF-16LE with BOM on a real node). */
  encoding?: Encoding;
  eol?: Eol;
  /** Omit for a plain folder. 'flat' = AKS `<host>-<yyyyMMdd-HHmmss>_logs.zip`; 'top-folder' = one folder inside the zip. */
  zip?: ZipLayout;
  /** Write the small files a reader only lists (mtu, arp, winver, ...). Default true. */
  extras?: boolean;
  /** Platform nodes: write the side files (CNI config, plugin/containerd/kubelet logs, kubectl snapshot). Default true. */
  side?: boolean;
  /** Platform nodes: write the kubectl snapshot (kubectl-get-all.json). Default true. */
  kubectl?: boolean;
  /** The kubectl snapshot holds EndpointSlices (else a Service's backends come from its selector). Default true. */
  slices?: boolean;
}

/**
 * How a file is encoded on disk:
 *  ps      PowerShell `>`: follows WriteOptions.encoding (UTF-16LE+BOM by default); eol applies.
 *  ascii   `Out-File -Encoding ascii` (vfpOutput.txt, adapters\*): never a BOM; eol applies.
 *  native  written by Go/other tools (kubelet.log, JSON config): UTF-8, LF, untouched by options.
 *  utf8bom PowerShell transcript: UTF-8 with BOM, CRLF per eol.
 */
export type FileClass = 'ps' | 'ascii' | 'native' | 'utf8bom';

export interface BundleFile {
  /** Bundle-relative path with '/' separators. */
  path: string;
  cls: FileClass;
  content: () => Iterable<string>;
}

const one = (s: () => string) => () => [s()];

function pad2(n: number) {
  return String(n).padStart(2, '0');
}

export function timestamp(d: Date): string {
  return `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}-${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`;
}

/** The 8.3 folder name collectlogs makes with [IO.Path]::GetRandomFileName(), derived from the seed. */
export function randomFolderName(node: GeneratedNode): string {
  const abc = 'abcdefghijklmnopqrstuvwxyz012345';
  let h = (node.spec.seed * 2654435761) >>> 0;
  let s = '';
  for (let i = 0; i < 11; i++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    s += abc[h % 32];
  }
  return `${s.slice(0, 8)}.${s.slice(8)}`;
}

export function zipName(node: GeneratedNode, layout: ZipLayout): string {
  return layout === 'flat' ? `${node.hostName}-${timestamp(node.collectedAt)}_logs.zip` : `${randomFolderName(node)}.zip`;
}

export function bundleFiles(node: GeneratedNode, opts: WriteOptions = {}): BundleFile[] {
  const extras = opts.extras ?? true;
  const aks = opts.zip === 'flat';
  // The AKS copy of collectlogs.ps1 predates hnsportpoolallocs.txt and windowsServices.txt (2024-07).
  const newestScript = !aks && node.spec.schema === 2;
  const files: BundleFile[] = [
    { path: 'network.txt', cls: 'ps', content: one(() => networkTxt(node)) },
    { path: 'endpoint.txt', cls: 'ps', content: one(() => endpointTxt(node)) },
    { path: 'namespaces.txt', cls: 'ps', content: one(() => namespacesTxt(node)) },
    { path: 'policy.txt', cls: 'ps', content: () => policyTxt(node) },
    { path: 'hnsdiag.txt', cls: 'ps', content: () => hnsdiagTxt(node, true) },
    { path: 'ip.txt', cls: 'ps', content: one(() => ipTxt(node)) },
    { path: 'routes.txt', cls: 'ps', content: one(() => routesTxt(node)) },
    { path: 'ports.txt', cls: 'ps', content: () => portsTxt(node) },
    { path: 'vfpOutput.txt', cls: 'ascii', content: () => vfpOutputTxt(node) },
  ];
  if (extras) {
    files.push(
      { path: 'networkdetailed.txt', cls: 'ps', content: one(() => networkDetailedTxt(node)) },
      { path: 'vswitchForwarding.txt', cls: 'ps', content: one(() => vswitchForwardingTxt(node)) },
      { path: 'mtu.txt', cls: 'ps', content: one(() => mtuTxt(node)) },
      { path: 'arp.txt', cls: 'ps', content: one(() => arpTxt(node)) },
      { path: 'winver.txt', cls: 'ps', content: one(() => winverTxt(node)) },
      { path: 'hcsdiag.txt', cls: 'ps', content: one(() => hcsdiagTxt(node)) },
      { path: 'containers.txt', cls: 'ps', content: one(() => containersTxt(node)) },
      { path: 'reservedports.txt', cls: 'ps', content: one(() => reservedPortsTxt()) },
      { path: 'excludedportrange.txt', cls: 'ps', content: one(() => excludedPortRangeTxt()) },
      { path: 'dynamicportrange.txt', cls: 'ps', content: one(() => dynamicPortRangeTxt()) },
      { path: 'netadapter.txt', cls: 'ps', content: one(() => netAdapterTxt(node)) },
    );
    for (const f of adapterIntFiles(node)) files.push({ path: `adapters/${f.name}`, cls: 'ascii', content: () => [f.text] });
    if (newestScript) {
      files.push({ path: 'windowsServices.txt', cls: 'ps', content: one(() => windowsServicesTxt()) });
      files.push({ path: 'hnsportpoolallocs.txt', cls: 'ps', content: one(() => portPoolAllocsTxt(node)) });
    }
  }
  // Side files are written by Go programs (logs), by the plugins' installers or by kubectl: UTF-8, LF.
  const side = opts.side ?? true ? platformSideFiles(node, { kubectl: opts.kubectl, slices: opts.slices }) : [];
  for (const f of side) files.push({ path: f.path, cls: 'native', content: () => [f.text] });
  const sideHas = (p: string) => side.some((f) => f.path === p);
  if (aks) {
    const ts = timestamp(node.collectedAt);
    files.push(
      ...(sideHas('kubelet.log') ? [] : [{ path: 'kubelet.log', cls: 'native' as const, content: one(() => kubeletLog(node)) }]),
      { path: 'kubelet.err.log', cls: 'native', content: () => [''] },
      { path: 'kubeproxy.log', cls: 'native', content: one(() => kubeproxyLog(node)) },
      { path: 'kubeproxy.err.log', cls: 'native', content: () => [''] },
      ...(sideHas('kubeclusterconfig.json') ? [] : [{ path: 'kubeclusterconfig.json', cls: 'native' as const, content: one(() => kubeClusterConfigJson(node)) }]),
      { path: `${ts}_services.csv`, cls: 'ascii', content: one(() => servicesCsv()) },
      { path: `${ts}-hnsdiag-list.txt`, cls: 'ps', content: () => hnsdiagTxt(node, false) },
      { path: 'collect-windows-logs-output.log', cls: 'utf8bom', content: one(() => transcriptLog(node)) },
    );
  }
  return files;
}

const BOM16 = Buffer.from([0xff, 0xfe]);
const BOM8 = Buffer.from([0xef, 0xbb, 0xbf]);
const FLUSH_AT = 1 << 20;

function encodingFor(cls: FileClass, opts: WriteOptions): { enc: BufferEncoding; bom: Buffer | null; crlf: boolean } {
  const crlf = (opts.eol ?? 'crlf') === 'crlf';
  switch (cls) {
    case 'ps': {
      const e = opts.encoding ?? 'utf16le-bom';
      return e === 'utf16le-bom' ? { enc: 'utf16le', bom: BOM16, crlf } : { enc: 'utf8', bom: e === 'utf8-bom' ? BOM8 : null, crlf };
    }
    case 'ascii':
      return { enc: 'latin1', bom: null, crlf };
    case 'native':
      return { enc: 'utf8', bom: null, crlf: false };
    case 'utf8bom':
      return { enc: 'utf8', bom: BOM8, crlf };
  }
}

/** Stream one file to disk; returns bytes written. */
export async function writeBundleFile(file: BundleFile, fullPath: string, opts: WriteOptions): Promise<number> {
  const { enc, bom, crlf } = encodingFor(file.cls, opts);
  await mkdir(dirname(fullPath), { recursive: true });
  const ws = createWriteStream(fullPath, { highWaterMark: 4 << 20 });
  let bytes = 0;
  const put = async (b: Buffer) => {
    bytes += b.length;
    if (!ws.write(b)) await once(ws, 'drain');
  };
  if (bom) await put(bom);
  let pending: string[] = [];
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    let s = pending.length === 1 ? pending[0] : pending.join('');
    pending = [];
    size = 0;
    if (crlf) s = s.replace(/\n/g, '\r\n');
    await put(Buffer.from(s, enc));
  };
  for (const chunk of file.content()) {
    pending.push(chunk);
    size += chunk.length;
    if (size >= FLUSH_AT) await flush();
  }
  await flush();
  ws.end();
  await once(ws, 'finish');
  return bytes;
}

export interface WriteResult {
  /** The bundle folder, or the zip file when opts.zip is set. */
  path: string;
  /** Bundle-relative paths (zip entry names for zips). */
  entries: string[];
  bytes: number;
}

/** Fixed timestamp for zip entries so the same seed always yields the same zip bytes. */
function zipTime(node: GeneratedNode): Date {
  return new Date(node.collectedAt.getTime());
}

export async function writeBundle(node: GeneratedNode, outDir: string, opts: WriteOptions = {}): Promise<WriteResult> {
  const files = bundleFiles(node, opts);
  await mkdir(outDir, { recursive: true });
  if (!opts.zip) {
    let bytes = 0;
    for (const f of files) bytes += await writeBundleFile(f, join(outDir, ...f.path.split('/')), opts);
    return { path: outDir, entries: files.map((f) => f.path), bytes };
  }
  const staging = join(outDir, `.gen-staging-${process.pid}-${node.spec.seed}`);
  await rm(staging, { recursive: true, force: true });
  try {
    const prefix = opts.zip === 'top-folder' ? randomFolderName(node) + '/' : '';
    const zip = new yazl.ZipFile();
    const zipPath = join(outDir, zipName(node, opts.zip));
    const out = createWriteStream(zipPath);
    zip.outputStream.pipe(out);
    const entries: string[] = [];
    const mtime = zipTime(node);
    if (prefix) zip.addEmptyDirectory(prefix.slice(0, -1), { mtime, mode: 0o40755 });
    const dirs = new Set<string>();
    for (const f of files) {
      const p = join(staging, ...f.path.split('/'));
      await writeBundleFile(f, p, opts);
      const slash = f.path.lastIndexOf('/');
      if (slash > 0 && !dirs.has(f.path.slice(0, slash))) {
        dirs.add(f.path.slice(0, slash));
        zip.addEmptyDirectory(prefix + f.path.slice(0, slash), { mtime, mode: 0o40755 });
      }
      zip.addFile(p, prefix + f.path, { mtime, mode: 0o100644, compress: true });
      entries.push(prefix + f.path);
    }
    zip.end();
    await once(out, 'close');
    const bytes = (await stat(zipPath)).size;
    return { path: zipPath, entries, bytes };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
