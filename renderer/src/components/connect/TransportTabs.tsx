// WinRM, SSH or kubectl: the tabs choosing how to reach the node, and a line on what each needs.
import { TRANSPORTS, type Transport } from '../connect-form.ts';

export interface TransportTabsProps {
  value: Transport;
  onChange(t: Transport): void;
}

export function TransportTabs({ value, onChange }: TransportTabsProps) {
  return (
    <>
      <div className="connect-tabs" role="tablist" aria-label="Transport">
        {TRANSPORTS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={value === t.id}
            className={`connect-tab ${value === t.id ? 'active' : ''}`}
            onClick={() => onChange(t.id)}
            data-testid={`connect-tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <p className="muted connect-hint">{TRANSPORTS.find((t) => t.id === value)?.hint}</p>
    </>
  );
}
