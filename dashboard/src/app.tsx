import { useState } from 'preact/hooks';
import type { Session } from './api.js';
import { clearSession, loadSession } from './session.js';
import { Shell } from './shell.js';
import { SignIn } from './views/sign-in.js';

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  if (!session) return <SignIn onSignIn={setSession} />;
  return (
    <Shell
      // A new key is a new shell: no object, list or event of the previous key survives the switch.
      key={`${session.variant}:${session.apiKey}`}
      session={session}
      onSignOut={() => {
        clearSession();
        setSession(undefined);
      }}
    />
  );
}
