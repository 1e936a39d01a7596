import { useState } from 'preact/hooks';
import type { Webhook } from '../api.js';
import { type Action, useAction, useApi, useQuery } from '../hooks.js';
import {
  ActionStatus,
  ConfirmButton,
  DisclosureButton,
  Id,
  OneTimeSecret,
  Page,
  ResourceTable,
  Section,
  Status,
  TextField,
  Time,
} from '../ui.js';

function Deliveries(props: { webhook: Webhook; action: Action }) {
  const api = useApi();
  const deliveries = useQuery((client) => client.deliveries(props.webhook.id), [props.webhook.id], ['*']);
  const busy = props.action.busy !== undefined;
  return (
    <Section title={`Deliveries to ${props.webhook.url}`} id="deliveries-title">
      <ResourceTable
        list={deliveries}
        what="deliveries"
        empty="No deliveries yet."
        label="Deliveries"
        columns={['Event', 'Status', 'Attempts', 'Next attempt', 'Id', 'Retry']}
        row={(delivery) => (
          <tr key={delivery.id}>
            <th scope="row">
              <code>{delivery.eventType}</code>
              <span class="sub">{delivery.eventId}</span>
            </th>
            <td>
              <Status value={delivery.status} />
            </td>
            <td>
              <ol class="attempts">
                {delivery.attempts.map((attempt) => (
                  <li key={attempt.attempt}>
                    #{attempt.attempt} <Time value={attempt.attemptedAt} />: {attempt.outcome}
                    {attempt.responseStatus !== null && ` (HTTP ${attempt.responseStatus})`}
                    {attempt.error && ` (${attempt.error})`}, {attempt.durationMs} ms
                  </li>
                ))}
              </ol>
            </td>
            <td>
              <Time value={delivery.nextAttemptAt} />
            </td>
            <td>
              <Id value={delivery.id} />
            </td>
            <td>
              {delivery.status !== 'succeeded' && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    props.action
                      .run('retrying', () => api.retryDelivery(props.webhook.id, delivery.id), `Retried ${delivery.id}.`)
                      .then(deliveries.reload)
                  }
                >
                  Retry<span class="visually-hidden"> {delivery.id}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
    </Section>
  );
}

function CreateWebhook(props: { action: Action; onCreated(secret: { label: string; value: string }): void }) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState('*');
  const [description, setDescription] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    const events = types
      .split(/[\s,]+/)
      .map((type) => type.trim())
      .filter(Boolean);
    const created = await props.action.run(
      'creating the webhook',
      () => api.createWebhook({ url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) }),
      (webhook) => `Webhook ${webhook.id} created.`,
    );
    if (created) {
      props.onCreated({ label: `Signing secret of ${created.id}`, value: created.secret });
      setUrl('');
    }
  };
  return (
    <form class="grid-form" onSubmit={submit}>
      <TextField
        id="webhook-url"
        label="Endpoint URL"
        type="url"
        required
        placeholder="https://example.test/hooks/cardrail"
        value={url}
        onValue={setUrl}
      />
      <TextField
        id="webhook-events"
        label="Event types"
        value={types}
        onValue={setTypes}
        help={
          <>
            Separated by commas or spaces; <code>*</code> for every type.
          </>
        }
      />
      <TextField
        id="webhook-description"
        label="Description (optional)"
        maxLength={500}
        value={description}
        onValue={setDescription}
      />
      <button type="submit" disabled={props.action.busy !== undefined}>
        Add endpoint
      </button>
    </form>
  );
}

export function WebhooksView() {
  const api = useApi();
  const webhooks = useQuery((client) => client.webhooks(), [], ['*']);
  const action = useAction();
  const [selected, setSelected] = useState<string | undefined>();
  const [secret, setSecret] = useState<{ label: string; value: string } | undefined>();
  const busy = action.busy !== undefined;
  const selectedWebhook = webhooks.data?.find((webhook) => webhook.id === selected);

  return (
    <Page
      title="Webhooks"
      intro="Endpoints that receive this organization's events, signed with Cardrail-Signature, and every delivery attempt. Failed deliveries are retried on the test clock; retry one by hand here."
    >
      <ActionStatus action={action} />
      {secret && <OneTimeSecret label={secret.label} value={secret.value} onDismiss={() => setSecret(undefined)} />}
      <Section title="Endpoints" id="endpoints">
        <ResourceTable
          list={webhooks}
          what="webhooks"
          empty="No endpoints yet."
          label="Endpoints"
          columns={['URL', 'Events', 'Status', 'Id', 'Created', 'Actions']}
          row={(webhook) => (
            <tr key={webhook.id} class={webhook.id === selected ? 'selected' : undefined}>
              <th scope="row">
                {webhook.url}
                {webhook.description && <span class="sub">{webhook.description}</span>}
              </th>
              <td>{webhook.events.join(', ')}</td>
              <td>
                <Status value={webhook.status} />
              </td>
              <td>
                <Id value={webhook.id} />
              </td>
              <td>
                <Time value={webhook.createdAt} />
              </td>
              <td class="actions">
                <DisclosureButton
                  open={webhook.id === selected}
                  controls="deliveries-panel"
                  onToggle={() => setSelected(webhook.id === selected ? undefined : webhook.id)}
                >
                  Deliveries<span class="visually-hidden"> to {webhook.url}</span>
                </DisclosureButton>
                <button
                  type="button"
                  disabled={busy}
                  onClick={async () => {
                    const rotated = await action.run(
                      'rotating the secret',
                      () => api.rotateWebhookSecret(webhook.id),
                      'New secret issued; the old one keeps signing beside it for 24 hours.',
                    );
                    if (rotated) setSecret({ label: `New signing secret of ${webhook.id}`, value: rotated.secret });
                  }}
                >
                  Rotate secret<span class="visually-hidden"> of {webhook.url}</span>
                </button>
                <button
                  type="button"
                  class="secondary"
                  disabled={busy}
                  onClick={() =>
                    action
                      .run(
                        webhook.status === 'active' ? 'disabling' : 'enabling',
                        () => api.setWebhookStatus(webhook.id, webhook.status === 'active' ? 'disabled' : 'active'),
                        `Webhook ${webhook.id} is ${webhook.status === 'active' ? 'disabled' : 'active'}.`,
                      )
                      .then(webhooks.reload)
                  }
                >
                  {webhook.status === 'active' ? 'Disable' : 'Enable'}
                  <span class="visually-hidden"> {webhook.url}</span>
                </button>
                <ConfirmButton
                  label="Delete"
                  context={webhook.url}
                  confirm="Delete for good"
                  disabled={busy}
                  onConfirm={() =>
                    action
                      .run('deleting', () => api.deleteWebhook(webhook.id), `Webhook ${webhook.id} deleted.`)
                      .then(webhooks.reload)
                  }
                />
              </td>
            </tr>
          )}
        />
      </Section>
      <div id="deliveries-panel">{selectedWebhook && <Deliveries webhook={selectedWebhook} action={action} />}</div>
      <Section title="Add an endpoint" id="add-endpoint">
        <CreateWebhook
          action={action}
          onCreated={(created) => {
            setSecret(created);
            webhooks.reload();
          }}
        />
      </Section>
    </Page>
  );
}
