// The state every view shares: the API of the signed-in key, the event feed, and loading and acting on both.
import { AuthenticationError, CardrailError } from '@cardrail/sdk';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { DashboardApi, DashboardEvent } from './api.js';
import type { EventFeed } from './live.js';

// The shell provides both before any view renders.
export const ApiContext = createContext<DashboardApi | undefined>(undefined);
export const FeedContext = createContext<EventFeed | undefined>(undefined);

export function useApi(): DashboardApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() outside the signed-in shell');
  return api;
}

export function useFeed(): EventFeed {
  const feed = useContext(FeedContext);
  if (!feed) throw new Error('useFeed() outside the signed-in shell');
  return feed;
}

/** Which new events make a view reload: type prefixes such as `card.`; `*` for any event. */
export type RefreshOn = readonly string[];

const matches = (refreshOn: RefreshOn, events: readonly DashboardEvent[]) =>
  events.some((event) => refreshOn.some((prefix) => prefix === '*' || event.type.startsWith(prefix)));

/** A counter that moves when the feed brings events of the given types. */
function useFeedTick(refreshOn: RefreshOn): number {
  const feed = useFeed();
  const [tick, setTick] = useState(0);
  const key = refreshOn.join(' ');
  useEffect(
    () =>
      feed.subscribe((fresh) => {
        if (matches(key.split(' '), fresh)) setTick((value) => value + 1);
      }),
    [feed, key],
  );
  return tick;
}

export interface Query<T> {
  data: T | undefined;
  error: unknown;
  /** True while a load is under way (the previous data stays shown meanwhile). */
  loading: boolean;
  reload(): void;
}

/**
 * Loads data with the signed-in API when the view opens, when `deps` change and when the feed brings events of
 * `refreshOn`. A newer load supersedes an older one still under way.
 */
export function useQuery<T>(
  load: (api: DashboardApi) => Promise<T>,
  deps: readonly unknown[],
  refreshOn: RefreshOn = ['*'],
): Query<T> {
  const api = useApi();
  const tick = useFeedTick(refreshOn);
  const [nonce, setNonce] = useState(0);
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  // `deps` are the caller's; `tick` and `nonce` ask for a reload.
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current(api).then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [api, tick, nonce, ...deps]);
  const reload = useCallback(() => setNonce((value) => value + 1), []);
  return { ...state, reload };
}

export interface Action {
  /** The name of the action under way, if any. */
  busy: string | undefined;
  error: unknown;
  /** What the last action did, for the page's status line. */
  done: string | undefined;
  /**
   * Runs `work` as action `name` (one at a time), then polls the feed at once so every view shows its effects.
   * Resolves with what `work` answered, or undefined when it failed (the error is in `error`).
   */
  run<T>(name: string, work: () => Promise<T>, done?: string | ((result: T) => string)): Promise<T | undefined>;
}

export function useAction(): Action {
  const feed = useFeed();
  const [state, setState] = useState<{ busy: string | undefined; error: unknown; done: string | undefined }>({
    busy: undefined,
    error: undefined,
    done: undefined,
  });
  const busy = useRef(false);
  const run = useCallback(
    async <T>(name: string, work: () => Promise<T>, done?: string | ((result: T) => string)) => {
      if (busy.current) return undefined;
      busy.current = true;
      setState({ busy: name, error: undefined, done: undefined });
      try {
        const result = await work();
        setState({ busy: undefined, error: undefined, done: typeof done === 'function' ? done(result) : done });
        return result;
      } catch (error) {
        setState({ busy: undefined, error, done: undefined });
        return undefined;
      } finally {
        busy.current = false;
        void feed.poll();
      }
    },
    [feed],
  );
  return { ...state, run };
}

/** A sentence for a person: the API's own message and code, and what to do about a refused key. */
export function describeError(error: unknown): string {
  if (error instanceof AuthenticationError) {
    return 'The API refused this key (401): it may have been revoked. Sign out and sign in with another key.';
  }
  if (error instanceof CardrailError) {
    const code = error.code && error.code !== 'unknown' ? ` (${error.code})` : '';
    return `${error.message}${code}`;
  }
  return error instanceof Error ? error.message : String(error);
}
