// Search over an open bundle: its objects (the index built once per bundle), then VFP rule text when
// the objects leave room under the limit — in the corpus of each dump's distinct rules (bundle-search.ts),
// or, for a dump too varied to copy, in its kept bytes.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { SearchHit } from '../../analysis/view-models/types.ts';
import { ruleNameAt, searchObjects, searchRuleBytes } from '../../analysis/view-models/search.ts';
import { searchRuleCorpus } from '../../analysis/view-models/rule-corpus.ts';
import type { BundleSearch } from './bundle-search.ts';

export function searchBundle(m: NodeModel, index: BundleSearch, query: string, limit: number): SearchHit[] {
  const hits = searchObjects(index.objects, query, limit);
  if (m.vfp && hits.length < limit) {
    const portRefByIndex = new Map<string, string>();
    for (const p of m.ports ?? []) if (p.policy) portRefByIndex.set(`${p.policy.file}/${p.policy.port}`, p.key);
    m.vfp.files.forEach((f, fi) => {
      const room = Math.min(50, limit - hits.length);
      if (room <= 0) return;
      const corpus = index.rules[fi];
      const found = corpus
        ? searchRuleCorpus(corpus, query, room).map((r) => ({ port: f.index.rulePort[r], ruleByte: f.index.ruleByte[r] }))
        : searchRuleBytes(f.bytes, f.index.ports, query, room, fi);
      for (const h of found) {
        const key = portRefByIndex.get(`${fi}/${h.port}`);
        if (!key) continue;
        hits.push({
          ref: { type: 'port', id: key },
          text: ruleNameAt(f.bytes, h.ruleByte),
          context: `VFP rule on port ${f.index.ports[h.port]?.name.slice(0, 8) ?? ''}`,
          rule: { port: key, layer: '', group: '', rule: ruleNameAt(f.bytes, h.ruleByte), line: f.index.lineAt(h.ruleByte) },
          score: 10,
        });
      }
    });
  }
  return hits.slice(0, limit);
}
