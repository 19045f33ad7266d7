// `hnsight inspect`'s capacity section: the room left in each dynamic port range, with the sum that
// gives it (analysis/checks/port-capacity.ts).
import type { InspectDocument } from '../../analysis/inspect.ts';
import { plural } from '../../parsers/text/quantities.ts';

export function formatCapacityText(doc: InspectDocument, wrap: (text: string, indent: number) => string[]): string[] {
  const rows = doc.capacity ?? [];
  if (!rows.length) return [];
  const out = ['', 'capacity (dynamic ports):'];
  for (const r of rows) {
    out.push(`  ${r.proto.toUpperCase()}  ${plural(r.blocks, 'free 64-port block', 'free 64-port blocks')}, ${r.freePorts} of ${r.size} ports free`);
    out.push(...wrap(r.arithmetic, 6));
    // The forecast exists for the TCP row when pods here are source-NATed (analysis/checks/snat-forecast.ts).
    if (r.proto !== 'tcp') continue;
    out.push(...wrap(r.snat ? `Pods that still fit: ${r.snat.text}` : 'Pods that still fit: insufficient information (no pod here is source-NATed, or its NAT ranges are not in these files).', 6));
  }
  return out;
}
