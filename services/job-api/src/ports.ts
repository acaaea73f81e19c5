import type { JobView, Tenant } from '@dsched/domain';
import type {
  CallbackResult,
  CancelResult,
  CompletionDecision,
  LockedJob,
} from '@dsched/mysql/jobs/job-control';

export type { CallbackResult, CancelResult, CompletionDecision, LockedJob };

export interface JobLookup {
  /** A job of the tenant in MySQL (live or in the DLQ), or null. */
  live(tenantId: string, id: string): Promise<JobView | null>;
  /** A job of the tenant in history, or null. */
  archived(tenantId: string, id: string): Promise<JobView | null>;
}

export type TenantByKeyHash = (hash: Buffer) => Promise<Tenant | null>;

/** job-api's conditional writes on a live job (docs/async-completion.md). */
export interface JobControl {
  cancel(tenantId: string, id: string): Promise<CancelResult>;
  heartbeat(args: {
    tenantId: string;
    id: string;
    attempt: number;
    extendSeconds: number;
    progress?: unknown;
  }): Promise<CallbackResult<{ deadlineAt: Date; cancelRequested: boolean }>>;
  complete(
    args: { tenantId: string; id: string; attempt: number; errorClass: string | null },
    decide: (job: LockedJob) => CompletionDecision,
  ): Promise<CallbackResult<CompletionDecision>>;
}
