import { DschedApiError, DschedConfigError, DschedNetworkError } from '@dsched/client';
import { CommanderError } from 'commander';

// Exit codes: 0 ok, 1 error, 2 usage or invalid input, 3 not found. Errors go to stderr, one
// line with the code and message, then one line per field the API named.

export const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3, interrupted: 130 } as const;

/** Wrong or missing input found before any request was made. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The flag, argument or field at fault. */
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(field ? `${field}: ${message}` : message);
    this.field = field;
  }
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) {
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0
      ? EXIT.ok
      : EXIT.usage;
  }
  if (err instanceof UsageError || err instanceof DschedConfigError) return EXIT.usage;
  if (err instanceof DschedApiError) {
    if (err.code === 'not_found') return EXIT.notFound;
    if (err.code === 'invalid_argument') return EXIT.usage;
    return EXIT.error;
  }
  return EXIT.error;
}

export function describeError(err: unknown): string {
  if (err instanceof DschedApiError) {
    const lines = [
      `error: ${err.code}: ${(err.body as { error?: { message?: string } })?.error?.message ?? err.message}`,
    ];
    for (const d of err.details) lines.push(`  ${d.field}: ${d.issue}`);
    if (err.retryAfterMs !== undefined) lines.push(`  retry after ${Math.ceil(err.retryAfterMs / 1000)} s`);
    return lines.join('\n');
  }
  if (err instanceof DschedConfigError) return `error: ${err.message} (setting: ${err.setting})`;
  if (err instanceof DschedNetworkError) return `error: unreachable: ${err.message}`;
  if (err instanceof UsageError) return `error: ${err.message}`;
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}
