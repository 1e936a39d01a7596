import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { DashboardApi, type Session, type Variant } from '../api.js';
import { describeError } from '../hooks.js';
import { currentRoute } from '../router.js';
import { API_KEY_PATTERN, saveSession } from '../session.js';

/** A new test key: the mock creates its organization on first use (docs/ids-and-keys.md). */
function newTestKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `sk_test_${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

export function SignIn(props: { onSignIn(session: Session): void }) {
  const [apiKey, setApiKey] = useState('');
  const [variant, setVariant] = useState<Variant>('customer');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [generated, setGenerated] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  // Before the first paint: a person (or a script) typing into the field as soon as it shows must not lose the
  // keystrokes that follow a late focus move to the heading.
  useLayoutEffect(() => heading.current?.focus(), []);
  // Opened from an approval link: the page shows that intent once signed in (the address keeps it).
  const route = currentRoute();
  const awaited = route.view === 'approvals' ? route.id : undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    const key = apiKey.trim();
    if (!API_KEY_PATTERN.test(key)) {
      setError('An API key starts with sk_test_ or sk_live_, followed by at least 8 letters, digits or underscores.');
      return;
    }
    setBusy(true);
    setError(undefined);
    const session: Session = { apiKey: key, variant };
    try {
      await new DashboardApi(session).verify();
      saveSession(session);
      props.onSignIn(session);
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1 tabIndex={-1} ref={heading}>
        Cardrail mock dashboard
      </h1>
      {awaited && (
        <p class="notice" role="status">
          Sign in to decide on intent <code>{awaited}</code>: its page opens once you are signed in. Use a key of the organization
          the agent belongs to.
        </p>
      )}
      <p>
        Sign in with an API key of this mock to see and act on everything that key sees: its organization and mode, through the
        same API your code calls. Any key of the form <code>sk_test_</code> followed by 8 or more letters, digits or underscores
        opens a new organization on first use.
      </p>
      <form method="post" onSubmit={submit} class="card-form" aria-describedby={error ? 'sign-in-error' : undefined}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          value={apiKey}
          onInput={(event) => setApiKey((event.target as HTMLInputElement).value)}
          aria-invalid={error ? true : undefined}
          aria-describedby="api-key-help"
        />
        <p id="api-key-help" class="help">
          Kept in this tab's session storage only: never in the address bar, a cookie or a log. Closing the tab or signing out
          forgets it.
        </p>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            const key = newTestKey();
            setApiKey(key);
            setGenerated(key);
            // The field now holds a valid key: an error about what it held before no longer applies.
            setError(undefined);
          }}
        >
          Use a new test key
        </button>
        {generated && (
          <p class="help" role="status">
            The field now holds a new test key, <code>{generated}</code>: it opens an empty organization. Give the same key to
            your code to see its objects here.
          </p>
        )}
        <fieldset>
          <legend>API variant</legend>
          <label class="choice">
            <input
              type="radio"
              name="variant"
              value="customer"
              checked={variant === 'customer'}
              onChange={() => setVariant('customer')}
            />
            {/* One text run: in the flex label, a space right after the code would be dropped. */}
            <span>
              Customer variant (<code>Authorization: Bearer</code>, customers)
            </span>
          </label>
          <label class="choice">
            <input type="radio" name="variant" value="user" checked={variant === 'user'} onChange={() => setVariant('user')} />
            <span>
              User variant (<code>Api-Key</code> header, users)
            </span>
          </label>
        </fieldset>
        {error && (
          <p id="sign-in-error" class="notice notice-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
