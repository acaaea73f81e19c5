import { expect, it } from 'vitest';
import { staleClientFiles } from '../scripts/generate.ts';

// The client's types, documents and operations table are generated from the documents the APIs
// serve (the same functions build them). A route or schema changed without `pnpm client:generate`
// fails here, so the CLI, the client and the services cannot drift apart.

it('the committed generated files are what the APIs’ documents generate today', async () => {
  const stale = await staleClientFiles();
  expect(stale, `run pnpm client:generate and commit: ${stale.join(', ')}`).toEqual([]);
});
