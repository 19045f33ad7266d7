// Browse… next to the Connect dialog's kubeconfig, key and known_hosts fields: the button asks for the
// native open dialog (pickCredentialFile with its kind), the answer fills the field, a cancel changes
// nothing, a refusal (browser mode) is said under the field; without native dialogs there is no button
// and the hint says what hnsight serve reads instead.
import { describe, expect, it, vi } from 'vitest';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { BrowseButton, CredentialFileField } from '../../../renderer/src/components/connect/CredentialFileField.tsx';
import { EMPTY_FORM, credentialHint, targetFromForm, withCredentialFile } from '../../../renderer/src/components/connect-form.ts';
import { createCollectStore, type CollectDeps } from '../../../renderer/src/store/collect.ts';
import { ApiError } from '../../../contract/index.ts';

function store(pick: CollectDeps['api']['pickCredentialFile']) {
  const api = {
    subscribe: vi.fn(() => () => {}),
    startCollect: vi.fn(async () => ({ jobId: 'c1' })),
    getCollectJob: vi.fn(),
    cancelCollect: vi.fn(async () => ({ ok: true as const })),
    listSavedTargets: vi.fn(async () => []),
    forgetTarget: vi.fn(async () => ({ ok: true as const })),
    pickCredentialFile: vi.fn(pick),
  } as unknown as CollectDeps['api'] & { pickCredentialFile: ReturnType<typeof vi.fn> };
  return { api, s: createCollectStore({ api, openBundle: vi.fn() }) };
}

describe('Browse… (the button)', () => {
  it('calls onBrowse with its kind when clicked', () => {
    const onBrowse = vi.fn();
    const el = BrowseButton({ kind: 'identity', label: 'Private key file', onBrowse }) as ReactElement<{ onClick(): void; type: string }>;
    expect(el.type).toBe('button');
    el.props.onClick();
    expect(onBrowse).toHaveBeenCalledWith('identity');
  });

  it('is shown only where native dialogs exist; in the browser the hint names the default locations and --allow', () => {
    const props = { kind: 'kubeconfig' as const, label: 'kubeconfig', value: '', placeholder: '~/.kube/config', onChange: vi.fn(), onBrowse: vi.fn() };
    const desktop = renderToStaticMarkup(createElement(CredentialFileField, { ...props, canBrowse: true }));
    expect(desktop).toContain('data-testid="browse-kubeconfig"');
    expect(desktop).toContain('Browse…');
    const browser = renderToStaticMarkup(createElement(CredentialFileField, { ...props, canBrowse: false }));
    expect(browser).not.toContain('browse-kubeconfig');
    expect(browser).toContain('hnsight serve --allow DIR');
    expect(credentialHint('known-hosts', false)).toMatch(/files in ~\/\.ssh, or a file under a folder given with hnsight serve --allow DIR/);
  });
});

describe('Browse… (the store)', () => {
  it('asks pickCredentialFile for the kind and puts the answer in that field only', async () => {
    const { api, s } = store(async () => ({ path: '/home/me/clusters/prod.yaml' }));
    await s.getState().browse('kubeconfig');
    expect(api.pickCredentialFile).toHaveBeenCalledWith({ kind: 'kubeconfig' });
    expect(s.getState().form.kubectl.kubeconfig).toBe('/home/me/clusters/prod.yaml');
    expect(s.getState().form.ssh).toEqual(EMPTY_FORM.ssh);
    api.pickCredentialFile.mockResolvedValueOnce({ path: '/keys/id' }).mockResolvedValueOnce({ path: '/keys/kh' });
    await s.getState().browse('identity');
    await s.getState().browse('known-hosts');
    expect(s.getState().form.ssh).toMatchObject({ keyFile: '/keys/id', knownHosts: '/keys/kh' });
    expect(api.pickCredentialFile.mock.calls.map((c) => c[0])).toEqual([{ kind: 'kubeconfig' }, { kind: 'identity' }, { kind: 'known-hosts' }]);
    // The field is what startCollect is sent.
    expect(targetFromForm({ ...s.getState().form, transport: 'ssh', ssh: { ...s.getState().form.ssh, host: 'n', user: 'u' } }).target).toMatchObject({ privateKeyFile: '/keys/id', knownHostsFile: '/keys/kh' });
  });

  it('a cancelled dialog changes nothing; a refusal is said under the field', async () => {
    const { s } = store(async () => null);
    s.getState().setForm((f) => withCredentialFile(f, 'identity', '~/.ssh/id_rsa'));
    await s.getState().browse('identity');
    expect(s.getState().form.ssh.keyFile).toBe('~/.ssh/id_rsa');
    expect(s.getState().fieldErrors).toEqual({});
    const refused = store(async () => {
      throw new ApiError('refused: the browser has no native open dialog — …', 'refused');
    });
    await refused.s.getState().browse('known-hosts');
    expect(refused.s.getState().fieldErrors).toEqual({ knownHosts: expect.stringContaining('no native open dialog') });
    expect(refused.s.getState().form).toEqual(EMPTY_FORM);
  });
});
