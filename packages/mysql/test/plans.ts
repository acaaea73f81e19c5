import type { Pool, RowDataPacket } from 'mysql2/promise';
import { loadSql } from '../src/sql.ts';

const SQL_DIR = new URL('../src/jobs/', import.meta.url).href;

/**
 * EXPLAIN FORMAT=JSON of a statement of src/jobs: its JSON text, and the table node of its plan
 * wherever it sits (a filesort wraps it in read_sorted_file).
 */
export async function explainJobsStatement(
  pool: Pool,
  file: string,
  params: unknown[],
): Promise<{ table: Record<string, unknown>; json: string }> {
  const [p] = await pool.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${loadSql(SQL_DIR, file)}`, params);
  const json = String(p[0]!.EXPLAIN);
  const find = (node: unknown): Record<string, unknown> | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const o = node as Record<string, unknown>;
    const t = o.table as Record<string, unknown> | undefined;
    if (t && typeof t === 'object' && 'table_name' in t) return t;
    for (const v of Object.values(o)) {
      const hit = find(v);
      if (hit) return hit;
    }
    return undefined;
  };
  const table = find(JSON.parse(json));
  if (!table) throw new Error(`no table in the plan of ${file}`);
  return { table, json };
}
