// `hnsight inspect`'s capacity section: the room left in each dynamic port range, with the sum that
// gives it (analysis/checks/port-capacity.ts).
import type { InspectDocument } from '../../analysis/inspect.ts';

export function formatCapacityText(doc: InspectDocument, wrap: (text: string, indent: number) => string[]): string[] {
  const rows = doc.capacity ?? [];
  if (!rows.length) return [];
  const out = ['', 'capacity (dynamic ports):'];
  for (const r of rows) {
    out.push(`  ${r.proto.toUpperCase()}  ${r.blocks} free 64-port block(s), ${r.freePorts} of ${r.size} ports free`);
    out.push(...wrap(r.arithmetic, 6));
    out.push(...wrap('Pods that still fit: insufficient information (ports per pod not in these files).', 6));
  }
  return out;
}
