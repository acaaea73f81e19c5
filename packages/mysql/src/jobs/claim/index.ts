// The executor's claim: lock due jobs, hold tenant slots and flow-control keys, start attempts;
// then keep the claim (lease renewal) and learn of cancels while the call runs.
export { cancelRequestedClaims, renewClaimLeases } from './claim-leases.ts';
export {
  CLAIM_STATEMENTS,
  type ClaimArgs,
  claimableJobsWaiting,
  claimDueJobs,
  claimJobs,
} from './claims.ts';
