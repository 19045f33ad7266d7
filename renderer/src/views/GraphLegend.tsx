// What the line styles mean, for someone who has never seen this graph before.
import { useState } from 'react';
import { Info } from 'lucide-react';

const ITEMS: { cls: string; label: string }[] = [
  { cls: 'attach', label: 'attached / uplink' },
  { cls: 'lb-dip', label: 'load balancer → DIP' },
  { cls: 'route', label: 'route' },
  { cls: 'encap', label: 'encap (VXLAN)' },
  { cls: 'broken', label: 'dangling reference' },
];

export function GraphLegend() {
  const [open, setOpen] = useState(false);
  return (
    <div className="legend">
      <button type="button" className="btn small" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Info size={13} aria-hidden /> Legend
      </button>
      {open && (
        <ul className="legend-list">
          {ITEMS.map((i) => (
            <li key={i.cls}>
              <svg width="36" height="10" aria-hidden>
                <line x1="0" y1="5" x2="36" y2="5" className={`legend-line legend-${i.cls}`} />
              </svg>
              {i.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
