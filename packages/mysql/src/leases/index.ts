// The scheduler's partition leases and its group membership (docs/leases.md).
export {
  acquirePartitionLeases,
  countMembers,
  ensurePartitionLeases,
  forgetDeadMembers,
  heartbeatMember,
  leaveGroup,
  partitionLeaseName,
  releasePartitionLeases,
  renewPartitionLeases,
} from './partition-leases.ts';
