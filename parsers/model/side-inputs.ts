// The optional side inputs of a bundle folder (DESIGN.md §4): kubectl JSON, CNI configs and the bin
// directory, component logs. Several kubectl files merge into one snapshot.
import type { ParsedFile } from '../bundle/parsed-file.ts';
import { mergeSnapshots, type K8sSnapshot } from '../k8s/index.ts';
import type { CniBinListing, CniConfigFile } from '../cni/index.ts';
import type { LogFile } from '../logs/index.ts';
import type { CniInputs } from './types.ts';

export function collectSideInputs(parsed: ParsedFile[], markUsed: (p: ParsedFile) => void): { k8s?: K8sSnapshot; cni?: CniInputs; logs?: LogFile[] } {
  const snaps: K8sSnapshot[] = [];
  const configs: CniConfigFile[] = [];
  const logs: LogFile[] = [];
  let bin: CniBinListing | undefined;
  for (const p of parsed) {
    const c = p.content;
    if (c.type === 'k8s') snaps.push(c.value);
    else if (c.type === 'cni-config') configs.push(c.value);
    else if (c.type === 'cni-bin') bin = bin ?? c.value;
    else if (c.type === 'log') logs.push(c.value);
    else continue;
    markUsed(p);
  }
  // Plugin executables copied into the bundle (…/cni/bin/win-bridge.exe) tell the bin directory too.
  if (!bin) {
    const exes = parsed.filter((p) => /(^|\/)bin\/[^/]+\.exe$/i.test(p.name) && /cni/i.test(p.name));
    const [first] = exes;
    if (first) {
      const dir = first.name.replace(/\/[^/]+$/, '');
      bin = { dir, files: exes.filter((e) => e.name.startsWith(dir + '/')).map((e) => e.name.slice(dir.length + 1)), src: { file: first.name, line: 0 } };
    }
  }
  const out: { k8s?: K8sSnapshot; cni?: CniInputs; logs?: LogFile[] } = {};
  if (snaps.length) out.k8s = mergeSnapshots(snaps);
  if (configs.length || bin) out.cni = { configs, bin };
  if (logs.length) out.logs = logs;
  return out;
}
