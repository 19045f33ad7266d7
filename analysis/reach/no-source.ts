// What a node without a source to walk from lacks, in one sentence for the CLI's `reach` and the app's
// Reachability view alike: an empty table or grid would read as "nothing reaches anything".
import type { NodeModel } from '../../parsers/model/types.ts';
import { defaultSources } from './matrix.ts';

/**
 * The note when the node gives no IPv4 source (no local pod endpoint and no host address), else
 * undefined. What to try instead is the caller's: a CLI flag, or the app's walk form.
 */
export function noSourceNote(model: NodeModel): string | undefined {
  if (defaultSources(model).length) return undefined;
  const n = model.endpoints?.length ?? 0;
  const why = n === 1 ? 'its one endpoint is remote or has no IPv4 address' : n ? `its ${n} endpoints are all remote or have no IPv4 address` : 'it has no HNS endpoint';
  return `insufficient information: the input has no source to walk from. It needs a local pod endpoint (Get-HnsEndpoint with an endpoint of this node, joined to its vNIC by ipconfig /allcompartments /all) or the node's own address (ipconfig, the HNS network's management IP or a route table with a default route); ${why}`;
}
