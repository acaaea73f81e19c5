import type { MaintenanceGauges, ReleaseResult } from '@dsched/domain';

export type { MaintenanceGauges, ReleaseResult };

/** The reconciler's statements on the queue, each one batch. */
export interface ClaimStore {
  releaseExpired(limit: number): Promise<ReleaseResult>;
  failPastDeadline(limit: number): Promise<ReleaseResult>;
  releaseClaimsOf(owners: string[], limit: number): Promise<ReleaseResult>;
  runningOwners(): Promise<string[]>;
  gauges(): Promise<MaintenanceGauges>;
}

/** Of the given executor instance ids, those known to be gone (their pod no longer exists). */
export type GoneExecutors = (owners: string[]) => Promise<string[]>;
