import { type Tags, tagStrings } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';

// Which of a filter's tags drives a tag-filtered list (docs/tags.md): any would do, since each row
// read is checked against the whole filter, and the rarest reads least. Each tag's index rows in
// the list's range are counted up to a cap (one short index range per tag, at most 5, in
// parallel); a single tag needs no count.

export const TAG_COUNT_CAP = 1000;

/**
 * The tag of `filter` with the fewest index rows, as `count` (a capped COUNT over one tag's index
 * range, taking the tag as its parameter in the place `paramsFor` puts it) finds.
 */
export async function rarestTag(
  pool: Pool,
  filter: Tags,
  count: string,
  paramsFor: (tag: string) => unknown[],
): Promise<string> {
  const tags = tagStrings(filter);
  if (tags.length === 1) return tags[0]!;
  const counted = await Promise.all(
    tags.map(async (tag) => {
      const [rows] = await pool.query<RowDataPacket[]>(count, paramsFor(tag));
      return { tag, n: Number(rows[0]!.n) };
    }),
  );
  return counted.reduce((a, b) => (b.n < a.n ? b : a)).tag;
}
