// The bundles open in this backend, each with what is built from it once and then kept: the
// summary, the search index, the topology, the findings, the excerpt reader, the notes identity.
import { ApiError } from '../../contract/index.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { BundleSummary, TopologyGraph } from '../../analysis/view-models/types.ts';
import type { SearchIndex } from '../../analysis/view-models/search.ts';
import { findingViews, type FindingView } from '../../analysis/view-models/findings.ts';
import { runChecks } from '../../analysis/checks/index.ts';
import { ExcerptReader } from '../excerpt.ts';
import { diskOrigin, openOrigin, type BundleOrigin } from '../bundle/origin.ts';

const MAX_OPEN = 4;

export interface OpenBundle {
  id: string;
  model: NodeModel;
  summary: BundleSummary;
  /** What it was read from: read again for excerpts and notes, and joined with the next paste. */
  origin: BundleOrigin;
  excerpts: ExcerptReader;
  search?: SearchIndex;
  topology?: Map<string, TopologyGraph>;
  findings?: FindingView[];
  /** Identity of the bundle for its notes (computed on first use). */
  hash?: Promise<string>;
}

export class OpenBundles {
  private byId = new Map<string, OpenBundle>();

  add(id: string, model: NodeModel, summary: BundleSummary, origin: BundleOrigin = diskOrigin(model.source.location)): OpenBundle {
    const b: OpenBundle = { id, model, summary, origin, excerpts: new ExcerptReader(model, () => openOrigin(origin)) };
    this.byId.set(id, b);
    // The oldest bundles are closed so a long session does not grow without bound.
    while (this.byId.size > MAX_OPEN) this.byId.delete(this.byId.keys().next().value!);
    return b;
  }

  get(id: string): OpenBundle {
    const b = this.byId.get(id);
    if (!b) throw new ApiError('This node is no longer open in hnsight (it was closed or replaced, or hnsight was restarted): open it again.', 'not-found');
    return b;
  }

  close(id: string): void {
    this.byId.delete(id);
  }

  /** The findings of a bundle, computed on first use and kept. */
  findings(b: OpenBundle): FindingView[] {
    b.findings ??= findingViews(b.model, runChecks(b.model));
    return b.findings;
  }
}
