import { afterAll, beforeAll } from 'vitest';
import { createTestKeyspace, type TestKeyspace } from './cassandra.ts';
import { createTestDatabase, type TestDatabase } from './mysql.ts';

// The set-up every storage test file wrote again: a database (and a keyspace) of its own, made
// before its tests and closed after. Call at the top of the file; the handle is returned at once
// and usable from the first hook on (the hooks a file registers after the call run after the
// stores exist, and its own afterAll hooks before they close):
//
//   const db = useTestDatabase(import.meta.url);
//   const { db, ks } = useTestStores(import.meta.url);
//
// Only test files import this module (it registers vitest hooks); benchmarks and the load test
// call createTestDatabase and createTestKeyspace.

function late<T extends object>(what: string, get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const value = get();
      if (value === undefined)
        throw new Error(`the test ${what} exists from beforeAll on: use it in a hook or a test`);
      const field = Reflect.get(value, property);
      return typeof field === 'function' ? field.bind(value) : field;
    },
  });
}

/** A fresh, migrated database for this test file (kept afterwards, for a failed test's rows). */
export function useTestDatabase(fileUrl: string, suffix = ''): TestDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(fileUrl, suffix);
  });
  afterAll(async () => {
    await db?.close();
  });
  return late('database', () => db);
}

/** A fresh, migrated keyspace for this test file (dropped afterwards). */
export function useTestKeyspace(fileUrl: string): TestKeyspace {
  let ks: TestKeyspace | undefined;
  beforeAll(async () => {
    ks = await createTestKeyspace(fileUrl);
  });
  afterAll(async () => {
    await ks?.close();
  });
  return late('keyspace', () => ks);
}

/** Both stores of this test file, made side by side. */
export function useTestStores(fileUrl: string): { db: TestDatabase; ks: TestKeyspace } {
  let stores: { db: TestDatabase; ks: TestKeyspace } | undefined;
  beforeAll(async () => {
    const [db, ks] = await Promise.all([createTestDatabase(fileUrl), createTestKeyspace(fileUrl)]);
    stores = { db, ks };
  });
  afterAll(async () => {
    await Promise.all([stores?.db.close(), stores?.ks.close()]);
  });
  return { db: late('database', () => stores?.db), ks: late('keyspace', () => stores?.ks) };
}
