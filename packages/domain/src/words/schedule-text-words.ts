// The words of schedules in words (schedule-text.ts): the tokenizer and the vocabulary. A token
// keeps the word as the user wrote it, so a refusal quotes it back.

export interface Token {
  /** Lower case, as compared. */
  word: string;
  /** As written, for messages and for zone names. */
  raw: string;
  /** 1-based position among the words, for messages. */
  position: number;
}

/** A refusal: the word not understood (or null at the end) and what was expected there. */
export class TextError extends Error {
  readonly token: Token | null;
  constructor(token: Token | null, issue: string) {
    super(issue);
    this.name = 'TextError';
    this.token = token;
  }
}

export function refuse(token: Token | undefined | null, issue: string): never {
  throw new TextError(token ?? null, issue);
}

/**
 * Splits a phrase into words. Commas are words of their own; "9 am" is one word ("9am"); a
 * trailing full stop is dropped. Everything is kept otherwise: a word not in the grammar is refused
 * by the parser, never dropped here.
 */
export function tokenize(text: string): Token[] {
  const spaced = text
    .trim()
    .replace(/\.$/, '')
    .replace(/,/g, ' , ')
    .replace(/\b(\d{1,2}(?::\d{2}){0,2})\s+(am|pm|a\.m\.|p\.m\.)(?=\s|$)/gi, '$1$2');
  const raws = spaced.split(/\s+/).filter((w) => w.length > 0);
  return raws.map((raw, i) => ({
    word: raw
      .toLowerCase()
      .replace(/a\.m\.$/, 'am')
      .replace(/p\.m\.$/, 'pm'),
    raw,
    position: i + 1,
  }));
}

export const WEEKDAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A day name, singular or plural ("monday", "mondays", "mon"), or null. */
export function weekdayOf(word: string): { day: number; plural: boolean } | null {
  if (word in WEEKDAYS) return { day: WEEKDAYS[word]!, plural: false };
  if (word.endsWith('s') && word.slice(0, -1) in WEEKDAYS && word.length > 4) {
    return { day: WEEKDAYS[word.slice(0, -1)]!, plural: true };
  }
  return null;
}

export const MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

const ORDINAL_WORDS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5 };

function suffixOf(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

/** "1st", "22nd", "first" → the number; a wrong suffix ("1th") is not an ordinal. */
export function ordinalOf(word: string, words = true): number | null {
  if (words && word in ORDINAL_WORDS) return ORDINAL_WORDS[word]!;
  const m = /^(\d{1,2})(st|nd|rd|th)$/.exec(word);
  if (!m) return null;
  const n = Number(m[1]);
  return suffixOf(n) === m[2] ? n : null;
}

export interface WallTime {
  hour: number;
  minute: number;
  second: number;
}

/**
 * A time of day: "9:00", "09:30", "17:45:30", "9am", "9:30pm", "12am" (midnight), "noon",
 * "midnight". A bare number is not one ("at 9" could be either 09:00 or 21:00): null.
 */
export function wallTimeOf(word: string): WallTime | null {
  if (word === 'noon' || word === 'midday') return { hour: 12, minute: 0, second: 0 };
  if (word === 'midnight') return { hour: 0, minute: 0, second: 0 };
  let m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(word);
  if (m) {
    const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
    if (hour > 23 || minute > 59 || second > 59) return null;
    return { hour, minute, second };
  }
  m = /^(\d{1,2})(?::(\d{2}))?(am|pm)$/.exec(word);
  if (m) {
    const [h, minute] = [Number(m[1]), Number(m[2] ?? 0)];
    if (h < 1 || h > 12 || minute > 59) return null;
    const hour = (h % 12) + (m[3] === 'pm' ? 12 : 0);
    return { hour, minute, second: 0 };
  }
  return null;
}

/** A whole number word: "15", or "a"/"an"/"one" (1), "two" ... "twelve". */
export function countOf(word: string): number | null {
  if (/^\d{1,7}$/.test(word)) return Number(word);
  const words: Record<string, number> = {
    a: 1,
    an: 1,
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
  };
  return words[word] ?? null;
}

export const UNIT_MS: Record<string, number> = {
  second: 1000,
  sec: 1000,
  minute: 60_000,
  min: 60_000,
  hour: 3_600_000,
  hr: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};

/** "minutes" → "minute", "hrs" → "hr"; null when the word is not a unit of time. */
export function unitOf(word: string): string | null {
  if (word in UNIT_MS) return word;
  if (word.endsWith('s') && word.slice(0, -1) in UNIT_MS) return word.slice(0, -1);
  return null;
}
