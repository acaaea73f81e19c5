// The executor's claim: lock due jobs, hold tenant slots and flow-control keys, start attempts;
// then keep the claim (lease renewal) and learn of cancels while the call runs.
export { cancelRequestedClaims, renewClaimLeases } from './claim-leases.ts';
export { type ClaimTenant, ClaimTenants } from './claim-tenants.ts';
export {
  ALL_PARTITIONS,
  CLAIM_STATEMENTS,
  type ClaimArgs,
  claimableJobsWaiting,
  claimDueJobs,
  claimJobs,
} from './claims.ts';
