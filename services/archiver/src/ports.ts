import type { JobRecord } from '@dsched/domain';

export type { JobRecord };

export interface FinishedJobSource {
  /** Terminal jobs ready for history, oldest first, with their attempts. */
  select(limit: number): Promise<JobRecord[]>;
  /** Deletes the given jobs if they are still the terminal rows that were archived. */
  delete(jobs: { id: string; attempt: number }[]): Promise<number>;
  /** Seconds since the oldest job waiting for the archiver became archivable. */
  lagSeconds(): Promise<number>;
}

/** Pending jobs already due, counted up to `cap`: how busy delivery is right now. */
export type DeliveryBacklog = (cap: number) => Promise<number>;

/** Writes jobs to history; idempotent, so a rewrite after a crash is harmless. */
export type HistoryWriter = (records: JobRecord[]) => Promise<void>;

/** Called between the history write and the MySQL delete; a test switch makes it crash. */
export type Failpoint = () => void;
