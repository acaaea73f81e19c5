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

/** A query value: one string, or several (`tag=a:1&tag=b:2`); empty ones are left out. */
export type QueryValue = string | readonly string[] | undefined;

export function href(path: string, query: Record<string, QueryValue> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const one of typeof v === 'string' ? [v] : (v ?? [])) if (one) qs.append(k, one);
  }
  const s = qs.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export function go(path: string, query: Record<string, QueryValue> = {}): void {
  location.hash = href(path, query);
}
