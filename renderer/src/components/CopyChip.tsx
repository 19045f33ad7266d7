// A short value (GUID prefix) that copies the full value on click and says so.
import { memo, useState, type MouseEvent } from 'react';
import { Check, Copy } from 'lucide-react';
import { copyText } from '../lib/copy-text.ts';

interface Props {
  text: string;
  value: string;
  label?: string;
  className?: string;
}

export const CopyChip = memo(function CopyChip({ text, value, label, className = '' }: Props) {
  const [copied, setCopied] = useState(false);
  const onClick = async (e: MouseEvent) => {
    e.stopPropagation();
    if (await copyText(value)) {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1200);
    }
  };
  return (
    <button
      type="button"
      className={`copy-chip nodrag ${copied ? 'copied' : ''} ${className}`}
      onClick={onClick}
      title={copied ? 'copied' : `Copy ${label ?? 'value'}: ${value}`}
      aria-label={`Copy ${label ?? 'value'} ${value}`}
    >
      <span className="mono">{text}</span>
      {copied ? <Check size={11} aria-hidden /> : <Copy size={11} aria-hidden />}
      {copied && (
        <span className="copied-tip" role="status">
          copied
        </span>
      )}
    </button>
  );
});

/** A copy button for a value shown in full next to it. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn ghost small icon copy-btn"
      title={copied ? 'copied' : `Copy ${label}`}
      aria-label={`Copy ${label}`}
      onClick={async (e) => {
        e.stopPropagation();
        if (await copyText(value)) {
          setCopied(true);
          window.setTimeout(() => setCopied(false), 1200);
        }
      }}
    >
      {copied ? <Check size={12} aria-hidden /> : <Copy size={12} aria-hidden />}
    </button>
  );
}
