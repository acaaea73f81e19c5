import { canonicalJson } from '@dsched/domain/json';

// MySQL returns JSON columns parsed, with object keys in its own storage order; MariaDB stores JSON
// as LONGTEXT and returns a string in the order it was sent. Both are read into one order, the
// domain's canonical one (sorted keys), so a document reads the same on either engine.
export function readJson<T>(value: unknown): T {
  if (value === null || value === undefined) return value as T;
  if (typeof value === 'string') return canonicalJson(JSON.parse(value) as T);
  if (Buffer.isBuffer(value)) return canonicalJson(JSON.parse(value.toString('utf8')) as T);
  return canonicalJson(value as T);
}

export function writeJson(value: unknown): string {
  return JSON.stringify(value);
}
