// The generated nodes the before/after comparisons (inspect-compare.ts, reach-compare.ts) read beside the
// fixtures, demos and corpus: every platform of the generator, healthy and with every fault it gives
// that platform, made once into `cache` (seed 7) and kept there for the next run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const PLATFORMS = ['flannel-host-gw', 'flannel-vxlan', 'azure-cni', 'azure-cni-overlay', 'eks-vpc-bridge', 'calico-vxlan', 'calico-bgp', 'antrea', 'ovn-kubernetes', 'nat'];
export const FAULTS = ['exception-list-typo', 'stale-lb-dip', 'missing-remote-subnet-route', 'blocked-port', 'endpoint-without-vnic', 'wrong-gateway', 'duplicate-ip', 'slow-cni-add', 'cni-add-failures', 'stale-backend', 'missing-backend'];

function gen(dir: string, platform: string, faults: string[]): { ok: boolean; stderr: string } {
  const args = ['--import', 'tsx', path.join(ROOT, 'tools/gen-bundle.ts'), '--out', dir, '--platform', platform, '--seed', '7', ...faults.flatMap((f) => ['--fault', f])];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  return { ok: r.status === 0, stderr: r.stderr };
}

/** The generated nodes' folders, made where missing. */
export function generated(cache: string): string[] {
  const out: string[] = [];
  for (const platform of PLATFORMS) {
    for (const faulty of [false, true]) {
      const dir = path.join(cache, `${platform}${faulty ? '-faults' : ''}`);
      if (!existsSync(path.join(dir, 'vfpOutput.txt'))) {
        // Every fault the generator gives this platform: all at once, else each it accepts on its own.
        let faults = faulty ? FAULTS : [];
        if (!gen(dir, platform, faults).ok) faults = faults.filter((f) => gen(path.join(cache, 'probe'), platform, [f]).ok);
        const r = gen(dir, platform, faults);
        if (!r.ok) throw new Error(`gen ${platform} ${faults.join(' ')} failed: ${r.stderr}`);
      }
      out.push(dir);
    }
  }
  return out;
}
