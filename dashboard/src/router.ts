// Views are addressed by the URL's fragment (`#/cards`): the server serves one page, and the fragment never carries
// anything secret.
import { useEffect, useState } from 'preact/hooks';

function currentPath(): string {
  return location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
}

export function useRoute(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onChange = () => setPath(currentPath());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return path;
}

export function href(path: string): string {
  return `#/${path}`;
}
