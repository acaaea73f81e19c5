// Every loop of the harness is bounded in time (and so in count): these are the only waiting
// primitives it uses.

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `check` every `intervalMs` until it returns true or `timeoutMs` passes. Returns whether it
 * held; a check that throws counts as false (the thing polled may be down on purpose).
 */
export async function pollUntil(
  check: () => Promise<boolean> | boolean,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 250;
  for (;;) {
    try {
      if (await check()) return true;
    } catch {
      // not yet
    }
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
  }
}

/** Like pollUntil, but failing is an error that says what was awaited. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<void> {
  if (!(await pollUntil(check, options)))
    throw new Error(`${what}: not reached within ${options.timeoutMs} ms`);
}

/** Runs `fn` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      results[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(lanes);
  return results;
}
