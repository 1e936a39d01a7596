/** The hosts a merchant fake may live at: this machine only, so no test can reach or impersonate a real merchant. */
const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/;

/** The origin of `url` when it is an http(s) URL on loopback; throws otherwise. */
export function loopbackOrigin(url: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${what} must be an absolute URL on loopback, got ${JSON.stringify(url)}`);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !LOOPBACK.test(parsed.hostname))
    throw new TypeError(`${what} must be on loopback (127.0.0.1, localhost or [::1]), got ${parsed.origin}`);
  return parsed.origin;
}
