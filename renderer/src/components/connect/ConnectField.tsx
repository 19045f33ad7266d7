// One labelled field of the Connect to node… form, with its message: what is wrong with it, else a hint.
import { useId, type ReactNode } from 'react';

export interface ConnectFieldProps {
  label: string;
  error?: string;
  hint?: string;
  /** The control, given the id its label points at. */
  children: (id: string) => ReactNode;
}

export function ConnectField({ label, error, hint, children }: ConnectFieldProps) {
  const id = useId();
  return (
    <>
      <label className="field-label connect-label" htmlFor={id}>
        {label}
      </label>
      <div className="connect-field">
        {children(id)}
        {error ? (
          <span className="connect-field-error" role="alert">
            {error}
          </span>
        ) : hint ? (
          <span className="muted connect-field-hint">{hint}</span>
        ) : null}
      </div>
    </>
  );
}
