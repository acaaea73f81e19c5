/** Gives back one batch of jobs whose claim lease expired; returns how many changed. */
export type ExpiredClaimReleaser = (limit: number) => Promise<number>;
