// Weighted fair share between tenants: the tagger gives due jobs their start tags (docs/fair-share.md).
export { type TagArgs, type TagResult, tagDueJobs } from './fair-tags.ts';
