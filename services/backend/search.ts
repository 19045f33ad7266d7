// Search over an open bundle: its objects (the index built once per bundle), then VFP rule text
// scanned in the kept dump bytes when the objects leave room under the limit.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { SearchHit } from '../../analysis/view-models/types.ts';
import { searchObjects, searchRuleBytes, type SearchIndex } from '../../analysis/view-models/search.ts';

export function searchBundle(m: NodeModel, index: SearchIndex, query: string, limit: number): SearchHit[] {
  const hits = searchObjects(index, query, limit);
  if (m.vfp && hits.length < limit) {
    const portRefByIndex = new Map<string, string>();
    for (const p of m.ports ?? []) if (p.policy) portRefByIndex.set(`${p.policy.file}/${p.policy.port}`, p.key);
    m.vfp.files.forEach((f, fi) => {
      const ruleHits = searchRuleBytes(f.bytes, f.index.ports, query, Math.min(50, limit - hits.length), fi);
      for (const h of ruleHits) {
        const key = portRefByIndex.get(`${fi}/${h.port}`);
        if (!key) continue;
        hits.push({
          ref: { type: 'port', id: key },
          text: h.ruleName,
          context: `VFP rule on port ${h.portName.slice(0, 8)}`,
          rule: { port: key, layer: '', group: '', rule: h.ruleName, line: f.index.lineAt(h.ruleByte) },
          score: 10,
        });
      }
    });
  }
  return hits.slice(0, limit);
}
