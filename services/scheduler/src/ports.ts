/** Materialises one capped batch of due occurrences for the given partitions. */
export type DueMaterialiser = (args: {
  partitions: number[];
  lookaheadS: number;
  limit: number;
}) => Promise<{ dueTasks: number; jobsInserted: number }>;
