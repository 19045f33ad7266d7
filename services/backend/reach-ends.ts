// The rows and columns of a node's reachability matrix: every local pod and the host (and, on a
// dual-stack node, their IPv6 addresses as sources of their own) against the default destinations.
// One function for both threads that need them: the reachability worker walks them, and the session
// (reach-session.ts) works them out from the server's own node so the view shows its rows while the
// worker is not started yet (it starts once the checks have ended: issue #27 point 2).
import type { NodeModel } from '../../parsers/model/types.ts';
import { defaultDestinations, defaultSources, type Endpoint, type Source } from '../../analysis/reach/index.ts';
import { destinations6, sources6 } from '../../analysis/reach/v6/sources6.ts';
import { reachEnds, type ReachEnd } from '../../analysis/view-models/reach-data.ts';
import { noSourceNote } from '../../analysis/reach/no-source.ts';

export interface ReachEnds {
  sources: ReachEnd[];
  destinations: ReachEnd[];
  /** What the rows lack, when there are none (analysis/reach/no-source.ts). */
  notes?: string[];
}

/** The sources and destinations to walk, and their rows and columns as the view shows them. */
export function reachEndsOf(node: NodeModel): { sources: Source[]; destinations: Endpoint[]; ends: ReachEnds } {
  // On a dual-stack node each family is its own rows and columns (the IPv6 address of every pod and of
  // the host against the IPv6 destinations), as `hnsight reach` without --to walks them.
  const v6 = sources6(node);
  const sources = [...defaultSources(node), ...v6];
  const destinations = [...defaultDestinations(node), ...(v6.length ? destinations6(node) : [])];
  const lacking = noSourceNote(node);
  return { sources, destinations, ends: { ...reachEnds(sources, destinations), ...(lacking ? { notes: [`${lacking}. Walk a packet from a pod's address in the walk panel, or open a whole bundle.`] } : {}) } };
}
