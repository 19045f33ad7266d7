// CNI .conf / .conflist (and `.json`, which libcni also accepts). Windows plugins keep their HNS
// policies in `AdditionalArgs` (azure-vnet, flannel's cni-conf) or `policies` (win-bridge,
// win-overlay, sdnbridge), each `{ Name: EndpointPolicy, Value: { Type: OutBoundNAT, ExceptionList } }`.
import { IssueSink, type ParseResult, type SourceRef } from '../types.ts';
import { LineIndex } from '../json/line-index.ts';
import { salvageTruncated } from '../json/salvage.ts';
import type { CniConfigFile, CniPluginConf } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Case-insensitive key lookup: Windows plugin configs mix `ExceptionList`, `exceptionList`, `Value`, `value`. */
function get(o: Obj, key: string): unknown {
  if (key in o) return o[key];
  const k = Object.keys(o).find((x) => x.toLowerCase() === key.toLowerCase());
  return k === undefined ? undefined : o[k];
}
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** True when the brackets from `open` on close (outside strings). */
function balanced(text: string, open: number): boolean {
  let depth = 0;
  let inStr = false;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 92) i++;
      else if (c === 34) inStr = false;
    } else if (c === 34) inStr = true;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return true;
  }
  return false;
}

export function cniExt(file: string): CniConfigFile['ext'] {
  const ext = /\.(conflist|conf|json)$/i.exec(file)?.[1];
  return ext ? (ext.toLowerCase() as CniConfigFile['ext']) : 'other';
}

export function looksLikeCniConfig(head: string): boolean {
  return /^\uFEFF?\s*\{/.test(head) && /"cniVersion"\s*:/.test(head);
}

export function parseCniConfig(text: string, file: string): ParseResult<CniConfigFile> {
  const sink = new IssueSink(file);
  const lines = new LineIndex(text);
  const out: CniConfigFile = { file, ext: cniExt(file), hasPluginsKey: false, plugins: [], src: sink.ref(1) };
  // Where a quoted value or key first appears at or after `from`: the evidence line for it.
  const lineOf = (needle: string, from = 0): { line: number; at: number } => {
    const i = text.indexOf(needle, from);
    return i < 0 ? { line: 1, at: from } : { line: lines.lineOf(i), at: i };
  };
  let doc: unknown;
  const body = text.replace(/^\uFEFF/, '');
  try {
    doc = JSON.parse(body);
  } catch (e) {
    out.invalid = e instanceof Error ? e.message : String(e);
    // A config cut short (a truncated file, a pasted excerpt): read the members before the cut.
    const open = body.search(/[{[]/);
    const sv = open >= 0 && !balanced(body, open) ? salvageTruncated(body, open, body.length) : undefined;
    let kept: unknown;
    try {
      kept = sv ? JSON.parse(sv.json) : undefined;
    } catch {
      kept = undefined;
    }
    if (!isObj(kept)) {
      sink.error(1, `CNI config is not valid JSON (${out.invalid}); containerd would fail to load it`);
      return { value: out, issues: sink.issues };
    }
    out.cut = true;
    doc = kept;
    sink.warn(lines.lineOf(Math.max(0, body.length - 1)), `the CNI config ends before its JSON closes (a cut file or an excerpt); read up to line ${lines.lineOf(sv!.keptTo)} — containerd could not load it as it is`);
  }
  // `crictl info` reports the configuration containerd loaded under `cniconfig` (corpus
  // cni-config-crictl-info-nat, containerd#6300): each network's parsed `Config` and its `Source`.
  if (isObj(doc) && isObj(get(doc, 'cniconfig'))) {
    const cc = get(doc, 'cniconfig') as Obj;
    out.origin = 'crictl-info';
    out.confDir = str(get(cc, 'PluginConfDir'));
    out.binDirs = strs(get(cc, 'PluginDirs'));
    const nets = (Array.isArray(get(cc, 'Networks')) ? (get(cc, 'Networks') as unknown[]) : []).filter(isObj);
    const pick = nets.map((n) => get(n, 'Config')).filter(isObj).find((c) => str(get(c, 'Name')) !== 'cni-loopback');
    if (!pick) {
      sink.warn(lineOf('"cniconfig"').line, 'crictl info holds no CNI network besides the loopback: containerd has loaded no CNI configuration');
      return { value: out, issues: sink.issues };
    }
    // `Network` is what libcni understood of the plugin (unknown members such as ipam.subnet are
    // dropped); `Source` is the plugin's own JSON: read that when it is whole.
    const fromSource = (p: Obj): Obj | undefined => {
      const src = get(p, 'Source');
      if (typeof src !== 'string') return undefined;
      try {
        const v = JSON.parse(src);
        return isObj(v) ? v : undefined;
      } catch {
        return undefined;
      }
    };
    const pluginList = (Array.isArray(get(pick, 'Plugins')) ? (get(pick, 'Plugins') as unknown[]) : []).filter(isObj).map((p) => fromSource(p) ?? get(p, 'Network')).filter(isObj);
    doc = { name: get(pick, 'Name'), cniVersion: get(pick, 'CNIVersion'), plugins: pluginList };
  }
  if (!isObj(doc)) {
    out.invalid = 'not a JSON object';
    sink.error(1, 'CNI config is not a JSON object');
    return { value: out, issues: sink.issues };
  }
  out.name = str(get(doc, 'name'));
  out.cniVersion = str(get(doc, 'cniVersion'));
  const plugins = get(doc, 'plugins');
  out.hasPluginsKey = plugins !== undefined;
  let cursor = 0;
  const readPlugin = (p: Obj): CniPluginConf => {
    const t = str(get(p, 'type'));
    const tl = t ? lineOf(`"${t}"`, cursor) : { line: lineOf('{', cursor).line, at: cursor };
    const startAt = t ? text.lastIndexOf('"type"', tl.at) : cursor;
    const pc: CniPluginConf = { type: t, src: sink.ref(tl.line), exceptionList: [], dnsServers: [], dnsSearch: [], dnsCapability: false, routes: [] };
    const caps = get(p, 'capabilities');
    pc.dnsCapability = isObj(caps) && get(caps, 'dns') === true;
    const ipam = get(p, 'ipam');
    if (isObj(ipam)) {
      pc.ipamType = str(get(ipam, 'type'));
      pc.ipamSubnet = str(get(ipam, 'subnet'));
      pc.ipamMode = str(get(ipam, 'mode'));
    }
    const mode = get(p, 'mode');
    if (typeof mode === 'string') pc.mode = mode;
    pc.name = str(get(p, 'name'));
    // flannel's Windows conflist nests the win-bridge/win-overlay settings in `delegate`.
    const delegate = get(p, 'delegate');
    const d0 = isObj(delegate) ? delegate : undefined;
    if (d0) pc.delegateType = str(get(d0, 'type'));
    const dns = get(p, 'dns') ?? (d0 && get(d0, 'dns'));
    if (isObj(dns)) {
      pc.dnsServers = strs(get(dns, 'Nameservers'));
      pc.dnsSearch = strs(get(dns, 'Search'));
      const d = lineOf('"Nameservers"', Math.max(0, startAt - 2000));
      pc.dnsSrc = sink.ref(d.line);
    }
    const policyLists = [get(p, 'AdditionalArgs'), get(p, 'policies'), d0 && get(d0, 'AdditionalArgs'), d0 && get(d0, 'policies')].filter(Array.isArray) as unknown[][];
    let from = Math.max(0, startAt);
    for (const list of policyLists) {
      for (const pol of list) {
        if (!isObj(pol)) continue;
        const v = get(pol, 'Value');
        const body = isObj(v) ? v : pol;
        const type = (str(get(body, 'Type')) ?? '').toLowerCase();
        if (type === 'outboundnat') {
          // v1 `ExceptionList`; v2 (sdnbridge/sdnoverlay, WMCO) `Settings.Exceptions` / `settings.exceptionList`.
          const settings = get(body, 'Settings');
          const list = get(body, 'ExceptionList') ?? (isObj(settings) ? (get(settings, 'Exceptions') ?? get(settings, 'ExceptionList')) : undefined);
          for (const e of strs(list)) {
            const at = lineOf(JSON.stringify(e), from);
            from = at.at + 1;
            pc.exceptionList.push({ value: e, src: sink.ref(at.line) });
          }
        } else if (type === 'route') {
          const dp = str(get(body, 'DestinationPrefix'));
          if (dp) pc.routes.push({ destinationPrefix: dp, needEncap: get(body, 'NeedEncap') === true });
        }
      }
    }
    cursor = Math.max(cursor, tl.at + 1);
    return pc;
  };
  if (Array.isArray(plugins)) {
    for (const p of plugins) if (isObj(p)) out.plugins.push(readPlugin(p));
    if (plugins.length === 0) sink.warn(lineOf('"plugins"').line, 'the plugins list is empty');
  } else if (plugins !== undefined) {
    sink.error(lineOf('"plugins"').line, '`plugins` is not a list');
  } else {
    out.plugins.push(readPlugin(doc));
  }
  return { value: out, issues: sink.issues };
}

/**
 * A listing of the CNI bin directory: `dir`, `Get-ChildItem` or `ls` output, or one name per line.
 * Keeps executable-looking names (the plugin `type` is the file name without `.exe`).
 */
export function parseCniBinListing(text: string, file: string): ParseResult<{ dir?: string; files: string[]; src: SourceRef }> {
  const sink = new IssueSink(file);
  const files = new Set<string>();
  let dir: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const d = /^(?:Directory(?: of)?|Verzeichnis(?: von)?)\s*:?\s+(.+)$/i.exec(line)?.[1];
    if (d !== undefined) {
      dir = d.trim();
      continue;
    }
    const tok = line.split(/\s+/).pop() ?? '';
    const name = tok.split(/[\\/]/).pop() ?? '';
    if (/^[\w.+-]+\.exe$/i.test(name) || (/^[a-z][\w-]*$/i.test(name) && line === tok && !/^(Mode|Name|Directory|total)$/i.test(name))) files.add(name);
  }
  if (files.size === 0) sink.warn(0, 'no plugin executables found in the listing');
  return { value: { dir, files: [...files], src: sink.ref(1) }, issues: sink.issues };
}
