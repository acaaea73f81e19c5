// The archiver's side of MySQL: finished jobs selected, then deleted once history holds them.
export { archiverLagSeconds, deleteArchivedJobs, readyBacklogUpTo, selectArchivableJobs } from './archive.ts';
