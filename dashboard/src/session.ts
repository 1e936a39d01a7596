// The signed-in key lives in this tab's sessionStorage only: not in the URL, not in a cookie, not in localStorage
// (other tabs and later visits do not see it), and gone when the tab closes or the person signs out.
import type { Session, Variant } from './api.js';

const STORAGE_KEY = 'cardrail.dashboard.session';

/** The syntax of an API key (docs/ids-and-keys.md); anything else is refused before it is sent. */
export const API_KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9_]{8,248}$/;

export function loadSession(): Session | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Session> | null;
    const variant: Variant | undefined =
      stored?.variant === 'user' || stored?.variant === 'customer' ? stored.variant : undefined;
    if (typeof stored?.apiKey === 'string' && API_KEY_PATTERN.test(stored.apiKey) && variant) {
      return { apiKey: stored.apiKey, variant };
    }
  } catch {
    // A value this page did not write: treated as signed out.
  }
  return undefined;
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
