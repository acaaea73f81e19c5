import { useEffect, useState } from 'preact/hooks';

// Hash routes (`#/tasks?state=paused`), so filters live in the URL, links can be shared and the
// back button works, while job-api serves one file for every screen.

export interface Route {
  path: string[];
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#/, '') || '/overview';
  const [path = '', qs = ''] = hash.split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(qs) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const on = () => setRoute(currentRoute());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) qs.set(k, v);
  const s = qs.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export function go(path: string, query: Record<string, string | undefined> = {}): void {
  location.hash = href(path, query);
}
