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

// Read for every claimed job (its target and retry policy), so it allocates only what changes: a
// document already in order is returned as it is (no copy, no sorted key list), and a copy is
// made by plain assignment (docs/performance.md).
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const v = value as { toJSON?: () => unknown };
  if (typeof v.toJSON === 'function') return canonical(v.toJSON());
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const c = canonical(item);
      if (out) out.push(c);
      else if (c !== item) {
        out = value.slice(0, i);
        out.push(c);
      }
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // The members as canonical values, made only once one differs from the record's own (a member
  // dropped, a value rewritten, or a key out of order).
  let members: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const item = record[keys[i]!];
    const drop = item === undefined || typeof item === 'function';
    const c = drop ? undefined : canonical(item);
    if (!members && (drop || c !== item || (i > 0 && !(keys[i - 1]! < keys[i]!)))) {
      members = keys.slice(0, i).map((k) => record[k]);
    }
    members?.push(c);
  }
  if (!members) return value;
  const order = keys.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
  const out: Record<string, unknown> = {};
  for (const i of order) {
    const c = members[i];
    if (c === undefined) continue;
    const k = keys[i]!;
    // A member named __proto__ (JSON.parse makes it an own member) stays a member.
    if (k === '__proto__') {
      Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    } else out[k] = c;
  }
  return out;
}

/** Whether two documents mean the same: equal after canonicalJson (key order does not count). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
