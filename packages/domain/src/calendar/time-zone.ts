// UTC offsets of IANA zones, from the runtime's tz database (Intl), cached per zone and day.
//
// Cron fields describe wall-clock time. The schedule code works on "floating" local times: a
// number of milliseconds whose UTC fields are the wall-clock fields (so calendar arithmetic has
// no daylight saving in it), and maps them to instants here. An offset is `local - instant`.
//
// Intl costs about 5 µs a call; the scheduler maps thousands of occurrences per tick, so offsets
// are looked up per day (two Intl calls per zone-day, ever) and a day whose two ends disagree is
// bisected once to the second of its transition. The assumption is at most one transition per
// zone per UTC day, which holds for every zone in the tz database since 1970.

const DAY_MS = 86_400_000;
const MAX_CACHED_DAYS = 50_000;

interface DayInfo {
  /** Offset at the start of the day (UTC midnight). */
  startOffset: number;
  /** Offset at the start of the next day. */
  endOffset: number;
  /** The first instant of the new offset, when the day has a transition. */
  transition: number | null;
}

const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu']);

export class ZoneOffsets {
  readonly zone: string;
  readonly #fixedUtc: boolean;
  readonly #format: Intl.DateTimeFormat | null;
  readonly #days = new Map<number, DayInfo>();

  constructor(zone: string) {
    this.zone = zone;
    this.#fixedUtc = UTC_ZONES.has(zone);
    this.#format = this.#fixedUtc
      ? null
      : new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          hourCycle: 'h23',
          era: 'short',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
        });
  }

  /** The offset (local minus UTC, in ms) in force at an instant. */
  offsetAt(instant: number): number {
    if (this.#fixedUtc) return 0;
    const info = this.#day(Math.floor(instant / DAY_MS));
    if (info.transition === null) return info.startOffset;
    return instant < info.transition ? info.startOffset : info.endOffset;
  }

  /** The first transition strictly after `instant` and at most `horizonDays` later, or null. */
  nextTransitionAfter(instant: number, horizonDays: number): number | null {
    if (this.#fixedUtc) return null;
    const first = Math.floor(instant / DAY_MS);
    for (let d = first; d <= first + horizonDays; d++) {
      const info = this.#day(d);
      if (info.transition !== null && info.transition > instant) return info.transition;
    }
    return null;
  }

  /** The instants whose wall clock reads `local` (floating ms): none in a gap, two in an overlap. */
  instantsOf(local: number): number[] {
    if (this.#fixedUtc) return [local];
    const offsets = new Set([
      this.offsetAt(local - DAY_MS),
      this.offsetAt(local),
      this.offsetAt(local + DAY_MS),
    ]);
    const found: number[] = [];
    for (const o of offsets) {
      const t = local - o;
      if (this.offsetAt(t) === o) found.push(t);
    }
    return found.sort((a, b) => a - b);
  }

  #day(day: number): DayInfo {
    let info = this.#days.get(day);
    if (info) return info;
    const start = day * DAY_MS;
    const end = start + DAY_MS;
    const startOffset = this.#intlOffset(start);
    const endOffset = this.#intlOffset(end);
    let transition: number | null = null;
    if (startOffset !== endOffset) {
      // Bisect to the second: tz database transitions fall on whole seconds.
      let lo = start / 1000; // offset here is startOffset
      let hi = end / 1000; // offset here is endOffset
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (this.#intlOffset(mid * 1000) === startOffset) lo = mid;
        else hi = mid;
      }
      transition = hi * 1000;
    }
    info = { startOffset, endOffset, transition };
    if (this.#days.size >= MAX_CACHED_DAYS) this.#days.clear();
    this.#days.set(day, info);
    return info;
  }

  #intlOffset(instant: number): number {
    const parts = this.#format!.formatToParts(instant);
    const field = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    const era = parts.find((p) => p.type === 'era')?.value;
    const year = era === 'BC' || era === 'B' ? 1 - field('year') : field('year');
    const local = Date.UTC(
      year,
      field('month') - 1,
      field('day'),
      field('hour'),
      field('minute'),
      field('second'),
    );
    return local - Math.floor(instant / 1000) * 1000;
  }
}

const zones = new Map<string, ZoneOffsets>();

/** The shared, cached offsets of a zone (the zone must be known: see isKnownTimeZone). */
export function zoneOffsets(zone: string): ZoneOffsets {
  let z = zones.get(zone);
  if (!z) {
    z = new ZoneOffsets(zone);
    zones.set(zone, z);
  }
  return z;
}

export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
