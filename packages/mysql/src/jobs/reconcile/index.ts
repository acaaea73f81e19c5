// The reconciler's repairs of jobs: expired claims given back, past-deadline jobs failed, the
// claims of executors that left released; the gauges it reports.
export {
  failPastDeadline,
  readMaintenanceGauges,
  releaseClaimsOf,
  releaseExpiredClaims,
  runningClaimOwners,
} from './reconcile.ts';
