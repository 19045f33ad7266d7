// Three outputs a customer might paste one by one into a ticket, cut from the l2bridge demo node:
// the endpoints of two of its pods (Get-HnsEndpoint | ConvertTo-Json, with the prompt line), then each
// pod's vfpctrl rule dump — the second one quoted with `> ` marks, as a markdown reply carries it.
// Together they join into one node whose walk between the two pods is the whole bundle's walk. Used
// below the UI (test/unit/recognise/merge.test.ts, test/unit/server/paste.test.ts) and through it
// (test/e2e/paste.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../services/bundle/load.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../parsers/hns/index.ts';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const demoDir = path.join(repo, 'assets/demo/l2bridge-node');

export interface DemoPastes {
  /** The whole demo bundle, loaded. */
  full: NodeModel;
  /** The two pods pasted (local endpoints that have a VFP port). */
  a: HnsEndpoint;
  b: HnsEndpoint;
  /** The VFP port of an endpoint of the demo. */
  portOf(id: string): string | undefined;
  /** One port's section of vfpOutput.txt, as `vfpctrl /port <id> /list-rule` prints it with its header. */
  section(port: string): string;
  /** endpoints of a and b; a's port dump; b's port dump quoted. */
  pastes: { name: string; text: string }[];
}

export async function demoPastes(): Promise<DemoPastes> {
  const full = await loadBundle(demoDir);
  const portOf = (id: string) => full.joins.endpoints.find((j) => j.endpointId === id)?.portKey;
  const [a, b] = full.endpoints!.filter((e) => !e.isRemote && portOf(e.id));
  const vfp = readFileSync(path.join(demoDir, 'vfpOutput.txt'), 'latin1').replace(/\r\n/g, '\n');
  const section = (port: string) => {
    const s = vfp.indexOf(`Policy for port : \n${port.toUpperCase()}`);
    const e = vfp.indexOf('Policy for port', s + 10);
    return vfp.slice(s, e < 0 ? undefined : e);
  };
  const pastes = [
    { name: 'paste-1.txt', text: `PS C:\\> Get-HnsEndpoint | ConvertTo-Json -Depth 10\n${JSON.stringify([a.raw, b.raw], null, 4)}\n` },
    { name: 'paste-2.txt', text: section(portOf(a.id)!) },
    { name: 'paste-3.txt', text: section(portOf(b.id)!).split('\n').map((l) => `> ${l}`).join('\n') },
  ];
  return { full, a, b, portOf, section, pastes };
}
