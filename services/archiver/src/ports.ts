import type { JobRecord } from '@dsched/mysql/jobs/job-records';

export type { JobRecord };

export interface FinishedJobSource {
  /** Terminal jobs ready for history, with their attempts. */
  select(limit: number): Promise<JobRecord[]>;
  /** Deletes the given jobs if they are still the terminal rows that were archived. */
  delete(jobs: { id: string; attempt: number }[]): Promise<number>;
}

/** Writes jobs to history; idempotent, so a rewrite after a crash is harmless. */
export type HistoryWriter = (records: JobRecord[]) => Promise<void>;
