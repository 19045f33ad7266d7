// CNI configuration side inputs, read the way containerd (libcni) reads its conf_dir: files with
// .conf, .conflist or .json, sorted by name, and only the first one used. Then the loaded config's
// plugins, bin directory, cniVersion (CHECK needs 0.4.0) and its ExceptionList/DNS against the endpoints.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import type { CheckContext } from './context.ts';
import type { CniConfigFile } from '../../parsers/cni/index.ts';
import { exceptionProblem } from './outboundnat.ts';
import { ipRange } from './context.ts';
import { plural } from '../../parsers/text/quantities.ts';

const dirOf = (f: string) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '');
const baseOf = (f: string) => f.slice(f.lastIndexOf('/') + 1);

function versionLt(v: string | undefined, than: [number, number, number]): boolean {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v ?? '');
  if (!m) return false;
  const a = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  for (const [i, want] of than.entries()) {
    const got = a[i] ?? 0;
    if (got !== want) return got < want;
  }
  return false;
}

/** The config containerd loads from each directory: the first by name among .conf/.conflist/.json. */
export function loadedConfigs(configs: CniConfigFile[]): { loaded: CniConfigFile; ignored: CniConfigFile[] }[] {
  const byDir = new Map<string, CniConfigFile[]>();
  for (const c of configs) if (c.ext !== 'other') byDir.set(dirOf(c.file), [...(byDir.get(dirOf(c.file)) ?? []), c]);
  return [...byDir.values()].flatMap((list) => {
    // Go's sort.Strings: byte order, not locale order.
    const [loaded, ...ignored] = [...list].sort((a, b) => (baseOf(a.file) < baseOf(b.file) ? -1 : baseOf(a.file) > baseOf(b.file) ? 1 : 0));
    // Every list has one config at least (byDir is filled one config at a time).
    return loaded ? [{ loaded, ignored }] : [];
  });
}

export const cniCheck: Check = {
  id: 'cni-config',
  ids: ['cni-config-loaded', 'cni-config-invalid', 'cni-conflist-no-plugins', 'cni-conf-no-type', 'cni-plugin-missing', 'cni-version-no-check', 'cni-exception-typo', 'cni-exceptions-drift', 'cni-dns-drift'],
  title: 'CNI configuration',
  platforms: 'any',
  assumes: "containerd's libcni rules for loading CNI configs, the same for every plugin",
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const configs = m.cni?.configs ?? [];
    if (!configs.length) return out;
    for (const { loaded, ignored } of loadedConfigs(configs)) {
      const ev1 = (c: CniConfigFile) => ctx.ev(c.src, /"(type|cniVersion|name)"/, 10);
      if (ignored.length) {
        out.push({
          id: 'cni-config-loaded',
          severity: ignored.some((i) => i.plugins.some((p) => p.type && !loaded.plugins.some((q) => q.type === p.type))) ? 'warning' : 'info',
          area: 'cni',
          title: `containerd loads ${baseOf(loaded.file)}; ${ignored.map((i) => baseOf(i.file)).join(', ')} ${ignored.length > 1 ? 'are' : 'is'} ignored`,
          explanation: `containerd's CRI plugin uses only the first CNI config in its conf_dir by file name (${[loaded, ...ignored].map((c) => baseOf(c.file)).join(' < ')}). Settings in the other files have no effect — a common surprise when an agent writes 10-x.conflist next to an old 05-y.conf.`,
          fix: 'Remove the configs that should not be there, or rename the intended one so it sorts first; then `Restart-Service containerd`.',
          objects: [loaded.file, ...ignored.map((i) => i.file)],
          evidence: [ev1(loaded), ...ignored.slice(0, 3).map(ev1)],
        });
      }
      const c = loaded;
      if (c.invalid && openAtEnd(m, c.file) > 0) {
        // Ends inside its JSON: a copy or paste cut it (platform detection reads such a file as "(cut?)").
        const open = openAtEnd(m, c.file);
        out.push({ id: 'cni-config-invalid', severity: 'warning', area: 'cni', undecided: true, title: `CNI config ${baseOf(c.file)} looks cut: it ends inside its JSON`, explanation: `${c.file} is not valid JSON (${c.invalid}), and it ends with ${plural(open, 'bracket')} still open, as a file cut short by a copy or a paste does. If the file on the node is whole, this is only how the bundle holds it; if the node's own file ends there, containerd cannot parse it: the network is not ready ("cni plugin not initialized") and no pod gets a network.`, fix: 'Compare with the file on the node (`Get-Content` in the CNI conf_dir). If it is cut there too, restore it (the CNI agent or the node setup writes it) and restart containerd.', objects: [c.file], evidence: [ctx.ev(c.src)] });
        continue;
      }
      if (c.invalid) {
        out.push({ id: 'cni-config-invalid', severity: 'error', area: 'cni', title: `CNI config ${baseOf(c.file)} is not valid JSON`, explanation: `containerd cannot parse ${c.file} (${c.invalid}): the network is not ready ("cni plugin not initialized") and no pod gets a network.`, fix: 'Fix the JSON (a trailing comma or a missing quote is typical) and restart containerd.', objects: [c.file], evidence: [ctx.ev(c.src)] });
        continue;
      }
      if (c.ext === 'conflist' && !c.hasPluginsKey) {
        out.push({ id: 'cni-conflist-no-plugins', severity: 'error', area: 'cni', title: `${baseOf(c.file)} is a .conflist without a "plugins" key`, explanation: `libcni reads .conflist files as lists and fails with "error parsing configuration list: no 'plugins' key". containerd then has no network config and pods fail with "cni plugin not initialized".`, fix: `Rename ${baseOf(c.file)} to .conf, or wrap its plugin in a "plugins": [ … ] list; restart containerd.`, objects: [c.file], evidence: [ev1(c)] });
      }
      if ((c.ext === 'conf' || c.ext === 'json') && (c.hasPluginsKey || !c.plugins[0]?.type)) {
        out.push({ id: 'cni-conf-no-type', severity: 'error', area: 'cni', title: `${baseOf(c.file)} is a .conf ${c.hasPluginsKey ? 'holding a plugins list' : 'with no "type"'}`, explanation: `A .conf file is a single plugin and needs a top-level "type"${c.hasPluginsKey ? '; this one holds a "plugins" list, which only a .conflist may have' : ''}. containerd cannot load it.`, fix: `${c.hasPluginsKey ? `Rename it to ${baseOf(c.file).replace(/\.(conf|json)$/, '.conflist')}` : 'Add the plugin "type"'} and restart containerd.`, objects: [c.file], evidence: [ev1(c)] });
      }
      const bin = m.cni?.bin;
      if (bin) {
        const have = new Set(bin.files.map((f) => f.toLowerCase().replace(/\.exe$/, '')));
        for (const p of c.plugins) {
          if (!p.type || have.has(p.type.toLowerCase())) continue;
          out.push({ id: 'cni-plugin-missing', severity: 'error', area: 'cni', title: `CNI plugin "${p.type}" is not in the bin directory`, explanation: `${baseOf(c.file)} uses plugin type "${p.type}", but ${bin.dir ?? 'the CNI bin directory'} has ${bin.files.join(', ') || 'no plugins'}. Every sandbox fails with 'failed to find plugin "${p.type}" in path'.`, fix: `Copy ${p.type}.exe into containerd's bin_dir (see config.toml, e.g. C:\\opt\\cni\\bin) or fix the type; no restart needed.`, objects: [p.type, c.file], evidence: [ctx.ev(p.src), { file: bin.src.file, line: bin.src.line, text: `bin directory: ${bin.files.join(', ')}` }] });
        }
      }
      if (versionLt(c.cniVersion, [0, 4, 0])) {
        out.push({
          // Worth knowing, not a fault: the plugins' own installers ship 0.2.0–0.3.x configs (sig-windows-tools
          // flannel, AKS azure-vnet, Calico, Antrea, WMCO), so a healthy node of each has one.
          id: 'cni-version-no-check', severity: 'info', area: 'cni',
          title: `${baseOf(c.file)} has cniVersion ${c.cniVersion}: no CNI CHECK`,
          explanation: `CHECK exists only from CNI spec 0.4.0. With ${c.cniVersion} the runtime can never ask the plugin whether a pod's network is still healthy — on Windows the vNIC is attached after ADD returns (SIG Network thread), and a failure there stays invisible until someone looks at the pod. The plugins' own installers write such versions, so this alone is no fault.`,
          fix: `Set "cniVersion": "0.4.0" or later (the plugin must support it: check its release notes) and restart containerd; pods keep their networks.`,
          objects: [c.file, c.cniVersion ?? ''],
          evidence: [ctx.ev(c.src, /"cniVersion"/, 40)],
        });
      }
      // The config's ExceptionList and DNS against what the endpoints got.
      for (const p of c.plugins) {
        for (const x of p.exceptionList) {
          const prob = exceptionProblem(x.value);
          if (!prob) continue;
          out.push({ id: 'cni-exception-typo', severity: prob.severity, area: 'cni', title: `CNI config ExceptionList entry ${x.value}`, explanation: `${prob.why}. Every pod created from ${baseOf(c.file)} inherits it.`, fix: `Correct the entry in ${c.file} (OutBoundNAT EndpointPolicy ExceptionList), then recreate the pods.`, objects: [x.value, c.file], evidence: [{ file: x.src.file, line: x.src.line, text: (m.text?.lineText(x.src.file, x.src.line) ?? x.value).trim() }] });
        }
        const pods = ctx.localPods.filter((e) => e.outboundNat.length);
        if (p.exceptionList.length && pods.length) {
          const want = new Set(p.exceptionList.map((x) => x.value));
          const differ = pods.filter((e) => {
            const got = new Set(e.outboundNat.flatMap((n) => n.exceptions));
            // The plugin may add the node subnet or service CIDR on its own: only the config's entries must be there.
            return [...want].some((w) => !got.has(w) && !(ipRange(w) && [...got].some((g) => ipRange(g)?.lo === ipRange(w)!.lo && ipRange(g)?.hi === ipRange(w)!.hi)));
          });
          const [e] = differ;
          const x0 = p.exceptionList[0];
          if (e && x0) {
            out.push({ id: 'cni-exceptions-drift', severity: 'warning', area: 'cni', title: `${plural(differ.length, 'pod endpoint')} ${differ.length === 1 ? 'lacks' : 'lack'} ExceptionList entries of ${baseOf(c.file)}`, explanation: `The loaded CNI config lists ${[...want].join(', ')}; endpoint ${e.id} has ${e.outboundNat.flatMap((n) => n.exceptions).join(', ') || 'none'}. The endpoints were created from another config (changed since, or another file was loaded then): the pods run with the old SNAT exceptions until recreated.`, fix: 'Recreate the pods (drain the node) so their endpoints are created from the current config.', objects: [c.file, ...differ.slice(0, 20).map((x) => x.id)], evidence: [{ file: x0.src.file, line: x0.src.line, text: (m.text?.lineText(x0.src.file, x0.src.line) ?? '').trim() }, ctx.ev(e.src, /ExceptionList/i)] });
          }
        }
        if (p.dnsServers.length && !p.dnsCapability) {
          const differ = ctx.localPods.filter((e) => e.dnsServers.length && !p.dnsServers.some((s) => e.dnsServers.includes(s)));
          const [e] = differ;
          if (e) {
            out.push({ id: 'cni-dns-drift', severity: 'warning', area: 'cni', title: `${plural(differ.length, 'pod')} ${differ.length === 1 ? 'has' : 'have'} DNS ${e.dnsServers.join(', ')}, the CNI config says ${p.dnsServers.join(', ')}`, explanation: `${baseOf(c.file)} sets dns.Nameservers ${p.dnsServers.join(', ')} (no dns capability, so kubelet does not override it), but the endpoints have other DNS servers: they were created from another config.`, fix: 'Recreate the pods after fixing the config; check kubelet --cluster-dns matches.', objects: [c.file, ...differ.slice(0, 20).map((x) => x.id)], evidence: [...(p.dnsSrc ? [ctx.ev(p.dnsSrc)] : []), ctx.ev(e.src, e.dnsServers[0])] });
          }
        }
      }
    }
    return out;
  },
};

/** Brackets still open at the end of a file's text (outside strings); 0 when balanced or not known. */
function openAtEnd(m: CheckContext['m'], file: string): number {
  const t = m.text;
  if (!t?.has(file)) return 0;
  let depth = 0;
  let inStr = false;
  for (let i = 1; i <= 20000; i++) {
    const l = t.lineText(file, i);
    if (l === undefined) break;
    for (let j = 0; j < l.length; j++) {
      const ch = l[j];
      if (inStr) {
        if (ch === '\\') j++;
        else if (ch === '"') inStr = false;
      } else if (ch === '"') inStr = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
    }
  }
  return depth;
}
