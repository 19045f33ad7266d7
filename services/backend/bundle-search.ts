// The search index of an open bundle, built once, in slices on the backend's event loop (each a few
// tens of milliseconds on a 250-pod node), so requests are answered between them: the objects (IPs,
// MACs, GUIDs, names) and, per VFP dump, the text of its distinct rules (analysis/view-models/
// rule-corpus.ts). A dump too varied for that is searched in its bytes, as before.
import type { NodeModel } from '../../parsers/model/types.ts';
import { buildSearchIndex, type SearchIndex } from '../../analysis/view-models/search.ts';
import { ruleCorpusSteps, type RuleCorpus } from '../../analysis/view-models/rule-corpus.ts';
import { budgeted } from './budgeted.ts';
import { StepCancelled, type StepProgress, type StepRun } from './bundle-step-runner.ts';

export interface BundleSearch {
  objects: SearchIndex;
  /** Per VFP dump (model.vfp.files order): its rule corpus, undefined when its bytes are searched instead. */
  rules: (RuleCorpus | undefined)[];
}

const turn = () => new Promise<void>((r) => setImmediate(r));

export function buildBundleSearch(m: NodeModel, progress: (p: StepProgress) => void): StepRun<BundleSearch> {
  let cancelled = false;
  const files = m.vfp?.files ?? [];
  const done = (async () => {
    // Let the reply that ended the load go out first.
    await turn();
    progress({ done: 0, total: files.length + 1, what: 'objects' });
    // Under the analysis budget like every view (the rule corpus below is bounded slice by slice).
    const objects = budgeted('the search index', () => buildSearchIndex(m));
    const rules: (RuleCorpus | undefined)[] = [];
    for (const [i, f] of files.entries()) {
      const steps = ruleCorpusSteps(f.bytes, f.index, i);
      for (;;) {
        await turn();
        if (cancelled) throw new StepCancelled('the search index was stopped');
        const s = steps.next();
        if (s.done) {
          rules.push(s.value);
          break;
        }
        progress({ done: i + 1, total: files.length + 1, what: `${s.value.what} in ${f.file} (${Math.round((100 * s.value.done) / Math.max(1, s.value.total))} %)` });
      }
    }
    return { objects, rules };
  })();
  return { done, cancel: () => (cancelled = true) };
}
