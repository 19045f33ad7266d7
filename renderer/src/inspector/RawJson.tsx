// The JSON document the object came from, collapsed by default (it is long and only sometimes needed).
import { useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { CopyButton } from '../components/CopyChip.tsx';
import { plural } from '../lib/format.ts';

export function RawJson({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="insp-section raw">
      <div className="raw-head">
        <button type="button" className="section-toggle" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />} Raw JSON
          <span className="muted">{plural(text.split('\n').length, 'line')}</span>
        </button>
        <CopyButton value={text} label="raw JSON" />
      </div>
      {open && <pre className="raw-json mono">{text}</pre>}
    </section>
  );
}
