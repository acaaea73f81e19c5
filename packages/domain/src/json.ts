// JSON documents by meaning, not by text. MySQL's JSON type keeps an object's keys in an order of
// its own (by length, then by bytes), MariaDB's JSON is text and keeps the order sent, and a
// document rebuilt in code has the order of its code: two equal documents can print differently.

/**
 * The document with every object's keys in ascending code-unit order, as JSON would print it
 * (a `toJSON` is applied, undefined and function members are dropped, like JSON.stringify): the
 * one order the stores return documents in, whichever engine holds them (docs/sql-portability.md).
 * Values already in that order are returned as they are.
 */
export function canonicalJson<T>(value: T): T {
  return canonical(value) as T;
}

function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const v = value as { toJSON?: () => unknown };
  if (typeof v.toJSON === 'function') return canonical(v.toJSON());
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const c = canonical(item);
      if (c !== item) changed = true;
      return c;
    });
    return changed ? out : value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const sorted = [...keys].sort();
  let changed = false;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i]!;
    const item = record[k];
    if (k !== keys[i]) changed = true;
    if (item === undefined || typeof item === 'function') {
      changed = true;
      continue;
    }
    const c = canonical(item);
    if (c !== item) changed = true;
    // A member named __proto__ (JSON.parse makes it an own member) stays a member.
    Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : value;
}

/** Whether two documents mean the same: equal after canonicalJson (key order does not count). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
