// What the graph's lines and marks mean, for someone who has never seen this graph before.
import { useState } from 'react';
import { Info } from 'lucide-react';

const LINES: { cls: string; label: string }[] = [
  { cls: 'attach', label: 'attached / uplink' },
  { cls: 'lb-dip', label: 'load balancer → DIP' },
  { cls: 'route', label: 'route' },
  { cls: 'encap', label: 'encap (VXLAN)' },
  { cls: 'broken', label: 'dangling reference' },
  { cls: 'fault', label: 'between objects of a finding' },
  { cls: 'walk', label: 'the walked path' },
];

export function GraphLegend() {
  const [open, setOpen] = useState(false);
  return (
    <div className="legend">
      <button type="button" className="btn small icon" aria-expanded={open} onClick={() => setOpen((o) => !o)} aria-label="Legend" title="What the lines and marks mean">
        <Info size={14} aria-hidden />
      </button>
      {open && (
        <ul className="legend-list">
          {LINES.map((i) => (
            <li key={i.cls}>
              <svg width="36" height="10" aria-hidden>
                <line x1="2" y1="5" x2="34" y2="5" className={`legend-line legend-${i.cls}`} />
              </svg>
              {i.label}
            </li>
          ))}
          <li>
            <span className="legend-marker" aria-hidden>
              <span className="fault-marker error">2</span>
            </span>
            findings about the object (click: the first)
          </li>
          <li>
            <span className="legend-marker" aria-hidden>
              <span className="hop-badge current" style={{ position: 'static' }}>3</span>
            </span>
            hop of the walk
          </li>
        </ul>
      )}
    </div>
  );
}
