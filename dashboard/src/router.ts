// Views are addressed by the URL's fragment (`#/cards`): the server serves one page, and the fragment never carries
// anything secret.
import { useEffect, useState } from 'preact/hooks';

/** The route of the address: its view (`cards`) and, for a page of one object, the object's id (`approvals/int_...`). */
export interface Route {
  view: string;
  id: string | undefined;
}

export function currentRoute(): Route {
  const [view = '', id] = location.hash.replace(/^#\/?/, '').split('?')[0]?.split('/') ?? [];
  return { view, id: id ? decodeURIComponent(id) : undefined };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function href(path: string): string {
  return `#/${path}`;
}
