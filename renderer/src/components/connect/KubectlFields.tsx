// The kubectl transport's fields: the Windows node's name, and optionally the kubeconfig and context.
import type { ConnectForm, CredentialKind, FieldErrors } from '../connect-form.ts';
import { ConnectField } from './ConnectField.tsx';
import { CredentialFileField } from './CredentialFileField.tsx';

export interface KubectlFieldsProps {
  value: ConnectForm['kubectl'];
  errors: FieldErrors;
  onChange(p: Partial<ConnectForm['kubectl']>): void;
  /** Native open dialogs exist: Browse… next to the kubeconfig. */
  canBrowse: boolean;
  onBrowse(kind: CredentialKind): void;
}

export function KubectlFields({ value, errors, onChange, canBrowse, onBrowse }: KubectlFieldsProps) {
  return (
    <>
      <ConnectField label="Node" error={errors.node} hint="A HostProcess pod runs on it for the collection and is deleted afterwards.">
        {(id) => <input id={id} className="input mono" value={value.node} onChange={(e) => onChange({ node: e.target.value })} placeholder="akswin000001" spellCheck={false} autoComplete="off" data-autofocus="" />}
      </ConnectField>
      <CredentialFileField kind="kubeconfig" label="kubeconfig" value={value.kubeconfig} placeholder="~/.kube/config" error={errors.kubeconfig} canBrowse={canBrowse} onChange={(kubeconfig) => onChange({ kubeconfig })} onBrowse={onBrowse} />
      <ConnectField label="Context" hint="Optional; default the kubeconfig's current context.">
        {(id) => <input id={id} className="input mono" value={value.context} onChange={(e) => onChange({ context: e.target.value })} spellCheck={false} autoComplete="off" />}
      </ConnectField>
    </>
  );
}
