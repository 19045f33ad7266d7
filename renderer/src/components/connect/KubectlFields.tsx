// The kubectl transport's fields: the Windows node's name, and optionally the kubeconfig and context.
import type { ConnectForm, FieldErrors } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';

export interface KubectlFieldsProps {
  value: ConnectForm['kubectl'];
  errors: FieldErrors;
  onChange(p: Partial<ConnectForm['kubectl']>): void;
}

export function KubectlFields({ value, errors, onChange }: KubectlFieldsProps) {
  return (
    <>
      <ConnectField label="Node" error={errors.node} hint="A HostProcess pod runs on it for the collection and is deleted afterwards.">
        {(id) => <input id={id} className="input mono" value={value.node} onChange={(e) => onChange({ node: e.target.value })} placeholder="akswin000001" spellCheck={false} autoComplete="off" data-autofocus="" />}
      </ConnectField>
      <ConnectField label="kubeconfig" hint="Optional; default $KUBECONFIG or ~/.kube/config.">
        {(id) => <input id={id} className="input mono" value={value.kubeconfig} onChange={(e) => onChange({ kubeconfig: e.target.value })} placeholder="~/.kube/config" spellCheck={false} autoComplete="off" />}
      </ConnectField>
      <ConnectField label="Context" hint="Optional; default the kubeconfig's current context.">
        {(id) => <input id={id} className="input mono" value={value.context} onChange={(e) => onChange({ context: e.target.value })} spellCheck={false} autoComplete="off" />}
      </ConnectField>
    </>
  );
}
