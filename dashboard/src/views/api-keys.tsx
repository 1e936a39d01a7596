import { useState } from 'preact/hooks';
import type { ApiKey } from '../api.js';
import { useAction, useApi, useQuery } from '../hooks.js';
import {
  ActionStatus,
  ConfirmButton,
  Id,
  OneTimeSecret,
  Page,
  ResourceTable,
  Section,
  SelectField,
  Status,
  TextField,
  Time,
} from '../ui.js';

export function ApiKeysView() {
  const api = useApi();
  const keys = useQuery((client) => client.apiKeys(), [], []);
  const action = useAction();
  const [name, setName] = useState('');
  const [mode, setMode] = useState(api.mode);
  const [secret, setSecret] = useState<{ label: string; value: string } | undefined>();
  const busy = action.busy !== undefined;
  // The API shows a key as its prefix and last four characters; the signed-in key is most likely the one shown alike.
  const isCurrent = (key: ApiKey) => key.status === 'active' && key.redactedKey === api.signedInAs;

  const create = async (event: Event) => {
    event.preventDefault();
    const created = await action.run(
      'creating a key',
      () => api.createApiKey({ mode, ...(name.trim() ? { name: name.trim() } : {}) }),
      (key) => `Key ${key.id} created.`,
    );
    if (created) {
      setSecret({ label: `New ${created.mode} key ${created.name ?? created.id}`, value: created.key });
      setName('');
      keys.reload();
    }
  };

  return (
    <Page
      title="API keys"
      intro="The keys of this organization in this mode. A new key is shown once; a revoked key is refused at once, everywhere."
    >
      <ActionStatus action={action} />
      {secret && <OneTimeSecret label={secret.label} value={secret.value} onDismiss={() => setSecret(undefined)} />}
      <Section title="Keys" id="keys">
        <ResourceTable
          list={keys}
          what="keys"
          empty="No keys listed."
          label="API keys"
          columns={['Name', 'Key', 'Mode', 'Status', 'Id', 'Created', 'Revoke']}
          row={(key) => (
            <tr key={key.id}>
              <th scope="row">
                {key.name ?? <span class="muted">unnamed</span>}
                {isCurrent(key) && <span class="sub">probably the key you signed in with</span>}
              </th>
              <td>
                <code>{key.redactedKey}</code>
              </td>
              <td>{key.mode}</td>
              <td>
                <Status value={key.status} />
                {key.revokedAt && (
                  <span class="sub">
                    <Time value={key.revokedAt} />
                  </span>
                )}
              </td>
              <td>
                <Id value={key.id} />
              </td>
              <td>
                <Time value={key.createdAt} />
              </td>
              <td>
                {key.status === 'active' && (
                  <ConfirmButton
                    label="Revoke"
                    context={key.name ?? key.redactedKey}
                    confirm={isCurrent(key) ? 'Revoke, and lose access here' : 'Revoke for good'}
                    disabled={busy}
                    onConfirm={() =>
                      action.run('revoking', () => api.revokeApiKey(key.id), `Key ${key.redactedKey} revoked.`).then(keys.reload)
                    }
                  />
                )}
              </td>
            </tr>
          )}
        />
      </Section>
      <Section title="Create a key" id="create-key">
        <form class="grid-form" onSubmit={create}>
          <TextField id="key-name" label="Name (optional)" maxLength={200} value={name} onValue={setName} />
          <SelectField id="key-mode" label="Mode" value={mode} onValue={setMode}>
            <option value="test">test</option>
            <option value="live">live (same organization, separate data)</option>
          </SelectField>
          <button type="submit" disabled={busy}>
            Create key
          </button>
        </form>
      </Section>
    </Page>
  );
}
