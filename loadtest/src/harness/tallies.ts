import type { SinkRecords } from '../sink/protocol.ts';
import type { StoredJob } from './stores-view.ts';
import { type Occurrence, occurrenceKey } from './workload.ts';

// The tallies of analyze.ts, per occurrence: what the sink saw, what the stores hold, and what
// became of each expected occurrence. Pure, like analyze.

export interface AnalysisInput {
  expected: Map<string, Occurrence>;
  /** Occurrences scheduled after this are outside the run (cron keeps firing while it stops). */
  windowEndMs: number;
  records: SinkRecords;
  jobs: Map<string, StoredJob>;
  /**
   * Jobs the harness cancelled: when the cancel answered, and whether it answered 'cancelled'
   * (a running job may only be marked, and end cancelled later).
   */
  cancelled: Map<string, { at: number; confirmed: boolean }>;
  /** t = 0 of every series (the first due time). */
  originMs: number;
  /** False for a peer with no dsched stores: only what the target saw is judged. */
  withStores?: boolean;
  /** Tasks whose calls go to a target other than the sink: their scenario accounts for their jobs. */
  outsideSink?: ReadonlySet<string>;
}

/** Evidence for a failing check: up to five examples of each kind. */
export type Note = (kind: string, text: string) => void;

export function examplesCollector(): { examples: Record<string, string[]>; note: Note } {
  const examples: Record<string, string[]> = {};
  const note = (kind: string, text: string) => {
    const list = examples[kind] ?? [];
    examples[kind] = list;
    if (list.length < 5) list.push(text);
  };
  return { examples, note };
}

export interface PerOccurrence {
  keys: Set<string>;
  effects: number;
  firstArrival: number;
  firstEffect: number;
}

export interface SinkSide {
  seen: Map<string, PerOccurrence>;
  redeliveries: number;
  early: number;
  callsAfterCancel: number;
}

/** What the sink saw, per occurrence; calls that came early or after their job's cancel. */
export function sinkSide(input: AnalysisInput, note: Note): SinkSide {
  const r = input.records;
  const out: SinkSide = { seen: new Map(), redeliveries: 0, early: 0, callsAfterCancel: 0 };
  for (let i = 0; i < r.key.length; i++) {
    const scheduledMs = Date.parse(r.scheduledFor[i] ?? '');
    const arrival = r.arrival[i] as number;
    const key = occurrenceKey(r.taskId[i] ?? '', scheduledMs);
    let occ = out.seen.get(key);
    if (!occ) {
      occ = { keys: new Set(), effects: 0, firstArrival: arrival, firstEffect: Number.POSITIVE_INFINITY };
      out.seen.set(key, occ);
    }
    occ.keys.add(r.key[i] ?? '');
    occ.firstArrival = Math.min(occ.firstArrival, arrival);
    if (r.effect[i]) {
      occ.effects++;
      occ.firstEffect = Math.min(occ.firstEffect, r.answeredAt[i] as number);
    } else if ((r.status[i] ?? 0) >= 200 && (r.status[i] ?? 0) < 300) out.redeliveries++;
    // Fired before it was due: a clock other than the database's decided (invariant 1).
    if (arrival < scheduledMs - 100) {
      out.early++;
      note('early', `${r.key[i]} scheduled ${r.scheduledFor[i]} arrived ${new Date(arrival).toISOString()}`);
    }
    const cancel = input.cancelled.get(r.key[i] ?? '');
    if (cancel?.confirmed && arrival > cancel.at) {
      out.callsAfterCancel++;
      note(
        'called after cancel',
        `${r.key[i]} cancelled ${new Date(cancel.at).toISOString()}, called ${new Date(arrival).toISOString()} (attempt ${r.attempt[i]})`,
      );
    }
  }
  return out;
}

/** What the stores hold, per occurrence (tasks whose calls go elsewhere left out). */
export function jobsByOccurrence(input: AnalysisInput): Map<string, StoredJob[]> {
  const out = new Map<string, StoredJob[]>();
  for (const job of input.jobs.values()) {
    if (!job.taskId || input.outsideSink?.has(job.taskId)) continue;
    const key = occurrenceKey(job.taskId, job.scheduledMs);
    const list = out.get(key);
    if (list) list.push(job);
    else out.set(key, [job]);
  }
  return out;
}

export interface Lateness {
  critical: number[];
  other: number[];
}

export interface ExpectedSide {
  delivered: number;
  lost: number;
  dead: number;
  cancelled: number;
  lateness: Lateness;
  byProfile: Map<string, number[]>;
  arrivals: { critical: [number, number][]; other: [number, number][] };
  lastEffect: number;
  firstDue: number;
  dueTimes: number[];
  effectTimes: number[];
}

/**
 * Each expected occurrence: delivered (an effect), cancelled by the harness, dead with a reason,
 * or lost; and how late its first call came.
 */
export function expectedSide(
  input: AnalysisInput,
  seen: Map<string, PerOccurrence>,
  jobs: Map<string, StoredJob[]>,
  note: Note,
): ExpectedSide {
  const out: ExpectedSide = {
    delivered: 0,
    lost: 0,
    dead: 0,
    cancelled: 0,
    lateness: { critical: [], other: [] },
    byProfile: new Map(),
    arrivals: { critical: [], other: [] },
    lastEffect: Number.NEGATIVE_INFINITY,
    firstDue: Number.POSITIVE_INFINITY,
    dueTimes: [],
    effectTimes: [],
  };
  for (const [key, occ] of input.expected) {
    out.firstDue = Math.min(out.firstDue, occ.scheduledMs);
    out.dueTimes.push(occ.scheduledMs);
    const s = seen.get(key);
    const cls = occ.task.plan.priority === 'critical' ? 'critical' : 'other';
    if (s) {
      const late = s.firstArrival - occ.scheduledMs;
      out.lateness[cls].push(late);
      out.arrivals[cls].push([s.firstArrival, late]);
      const lp = out.byProfile.get(occ.task.plan.profile);
      if (lp) lp.push(late);
      else out.byProfile.set(occ.task.plan.profile, [late]);
    }
    if (s && s.effects > 0) {
      out.delivered++;
      out.lastEffect = Math.max(out.lastEffect, s.firstEffect);
      out.effectTimes.push(s.firstEffect);
      continue;
    }
    const js = jobs.get(key) ?? [];
    if (js.some((j) => j.state === 'cancelled' && input.cancelled.has(j.id))) {
      // Cancelled by the harness, not delivered: as asked.
      out.cancelled++;
      continue;
    }
    if (js.some((j) => j.state === 'dead' && j.lastError)) {
      out.dead++;
      const j = js.find((x) => x.state === 'dead');
      note(
        'dead',
        `${j?.id} task ${occ.task.id} ${new Date(occ.scheduledMs).toISOString()}: ${j?.lastError}`,
      );
      continue;
    }
    out.lost++;
    note(
      'lost',
      `task ${occ.task.id} at ${new Date(occ.scheduledMs).toISOString()}: ${
        js.length === 0
          ? s
            ? 'called, never answered 2xx, no job row'
            : 'no job row, never called'
          : `jobs ${js.map((j) => `${j.id}=${j.state}@${j.attempt}${j.lastError ? ` (${j.lastError})` : ''}`).join(', ')}`
      }${s ? `; ${s.keys.size} key(s) called` : '; never called'}`,
    );
  }
  return out;
}

/** Effects beyond one per occurrence, and calls for occurrences no schedule implies. */
export function surplus(
  input: AnalysisInput,
  seen: Map<string, PerOccurrence>,
  note: Note,
): { duplicates: number; unexpectedCalls: number } {
  let duplicates = 0;
  let unexpectedCalls = 0;
  for (const [key, s] of seen) {
    if (s.effects > 1) {
      duplicates += s.effects - 1;
      note('duplicate effect', `${key}: ${s.effects} effects from keys ${[...s.keys].join(', ')}`);
    }
    if (!input.expected.has(key) && Number(key.split('|')[1]) <= input.windowEndMs) {
      unexpectedCalls++;
      note('unexpected occurrence', `${key} (keys ${[...s.keys].join(', ')})`);
    }
  }
  return { duplicates, unexpectedCalls };
}

export interface JobSide {
  unaccountedJobs: number;
  duplicateJobs: number;
  phantom: number;
  missingFromStores: number;
}

/**
 * Every job of the window must have ended (succeeded, dead with a reason, or cancelled), one per
 * occurrence, none succeeded unseen; a job the target saw must be in MySQL or in history (the
 * archiver deletes only what it wrote).
 */
export function jobSide(
  input: AnalysisInput,
  byOccurrence: Map<string, StoredJob[]>,
  seen: Map<string, PerOccurrence>,
  note: Note,
): JobSide {
  const out: JobSide = { unaccountedJobs: 0, duplicateJobs: 0, phantom: 0, missingFromStores: 0 };
  for (const [key, js] of byOccurrence) {
    if (js.length > 1) {
      out.duplicateJobs += js.length - 1;
      note('duplicate job', `${key}: ${js.map((j) => `${j.id}=${j.state}`).join(', ')}`);
    }
    for (const j of js) {
      if (j.scheduledMs > input.windowEndMs) continue;
      const ok = j.state === 'succeeded' || j.state === 'cancelled' || (j.state === 'dead' && !!j.lastError);
      if (!ok) {
        out.unaccountedJobs++;
        note('unaccounted job', `${j.id} (${key}) state=${j.state} attempt=${j.attempt} in ${j.where}`);
      }
      if (j.state === 'succeeded' && !(seen.get(key)?.keys.has(j.id) ?? false)) {
        out.phantom++;
        note('succeeded but never called', `${j.id} (${key})`);
      }
    }
  }
  for (const key of new Set(input.records.key)) {
    if (key && !input.jobs.has(key)) {
      out.missingFromStores++;
      note('called job in neither MySQL nor history', key);
    }
  }
  return out;
}
