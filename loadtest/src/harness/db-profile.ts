import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import mysql from 'mysql2/promise';

// Where MariaDB's time goes during a window (`--db-profile 1` of the peak scenarios): the run's own
// mariadbd (never the shared one) started with performance_schema's statement digests and the slow
// log at long_query_time 0 (every statement, with the rows it examined and sent). reset() marks the
// window's start (digests truncated, the slow log's length noted); collect() reads both for it:
// per statement shape, its count, total and mean time, and rows examined, sent and affected per
// call, largest total first. Both instruments cost MariaDB CPU themselves: a profiled run's timings
// are not the ones to report as figures, its proportions are.

export const DB_PROFILE_ARGS = (dir: string) => [
  '--performance-schema=ON',
  '--performance-schema-consumer-events-statements-current=ON',
  '--performance-schema-consumer-statements-digest=ON',
  '--performance-schema-digests-size=2000',
  '--max-digest-length=4096',
  '--performance-schema-max-digest-length=4096',
  '--slow-query-log=ON',
  `--slow-query-log-file=${dir}/slow.log`,
  '--long-query-time=0',
  '--log-slow-verbosity=query_plan',
];

export interface DigestRow {
  statement: string;
  calls: number;
  totalMs: number;
  meanUs: number;
  rowsExamined: number;
  rowsSent: number;
  rowsAffected: number;
  /** Share of all statements' time in the window. */
  share: number;
}

export interface SlowLogSummary {
  statements: number;
  /** Per statement shape (literals and lists folded): calls, rows examined per call. */
  byShape: { shape: string; calls: number; rowsExaminedPerCall: number; totalMs: number }[];
}

export class DbProfile {
  readonly #url: string;
  readonly #slowLog: string;
  #slowFrom = 0;

  constructor(serverUrl: string, dir: string) {
    this.#url = serverUrl;
    this.#slowLog = `${dir}/slow.log`;
  }

  async reset(): Promise<void> {
    const c = await mysql.createConnection(this.#url);
    try {
      await c.query('TRUNCATE TABLE performance_schema.events_statements_summary_by_digest');
    } finally {
      await c.end();
    }
    this.#slowFrom = existsSync(this.#slowLog) ? statSync(this.#slowLog).size : 0;
  }

  /** The window's digests, largest total time first, and its slow log summed by statement shape. */
  async collect(): Promise<{ digests: DigestRow[]; slow: SlowLogSummary }> {
    const c = await mysql.createConnection(this.#url);
    let rows: mysql.RowDataPacket[];
    try {
      [rows] = await c.query<mysql.RowDataPacket[]>(
        `SELECT DIGEST_TEXT AS statement, COUNT_STAR AS calls, SUM_TIMER_WAIT / 1e9 AS total_ms,
                SUM_ROWS_EXAMINED AS examined, SUM_ROWS_SENT AS sent, SUM_ROWS_AFFECTED AS affected
           FROM performance_schema.events_statements_summary_by_digest
          WHERE SCHEMA_NAME IS NULL OR SCHEMA_NAME NOT IN ('performance_schema', 'mysql')
          ORDER BY SUM_TIMER_WAIT DESC`,
      );
    } finally {
      await c.end();
    }
    const all = rows.reduce((s, r) => s + Number(r.total_ms), 0) || 1;
    const digests = rows.map((r) => {
      const calls = Number(r.calls) || 1;
      return {
        statement: String(r.statement ?? '').replace(/\s+/g, ' '),
        calls: Number(r.calls),
        totalMs: Number(Number(r.total_ms).toFixed(1)),
        meanUs: Number(((Number(r.total_ms) * 1000) / calls).toFixed(0)),
        rowsExamined: Number((Number(r.examined) / calls).toFixed(1)),
        rowsSent: Number((Number(r.sent) / calls).toFixed(1)),
        rowsAffected: Number((Number(r.affected) / calls).toFixed(1)),
        share: Number((Number(r.total_ms) / all).toFixed(4)),
      };
    });
    return { digests, slow: this.#slowSummary() };
  }

  #slowSummary(): SlowLogSummary {
    if (!existsSync(this.#slowLog)) return { statements: 0, byShape: [] };
    const text = readFileSync(this.#slowLog).subarray(this.#slowFrom).toString('utf8');
    const shapes = new Map<string, { calls: number; examined: number; ms: number }>();
    let statements = 0;
    // An entry: "# Query_time: 0.000123  Lock_time: ... Rows_sent: 1  Rows_examined: 10", maybe more
    // comment lines, "SET timestamp=...;", then the statement up to its ';' at a line's end.
    for (const entry of text.split(/^# Time: .*$|^# User@Host: .*$/m)) {
      const m = /Query_time: ([\d.]+).*Rows_examined: (\d+)/.exec(entry);
      if (!m) continue;
      const sql = entry
        .split('\n')
        .filter((l) => !l.startsWith('#') && !l.startsWith('SET timestamp') && !l.startsWith('use '))
        .join(' ')
        .trim();
      if (!sql) continue;
      statements++;
      const shape = shapeOf(sql);
      const s = shapes.get(shape) ?? { calls: 0, examined: 0, ms: 0 };
      s.calls++;
      s.examined += Number(m[2]);
      s.ms += Number(m[1]) * 1000;
      shapes.set(shape, s);
    }
    return {
      statements,
      byShape: [...shapes]
        .map(([shape, s]) => ({
          shape,
          calls: s.calls,
          rowsExaminedPerCall: Number((s.examined / s.calls).toFixed(1)),
          totalMs: Number(s.ms.toFixed(1)),
        }))
        .sort((a, b) => b.totalMs - a.totalMs),
    };
  }
}

/** A statement with its literals folded: strings, hex, numbers, and runs of them in lists. */
function shapeOf(sql: string): string {
  return sql
    .replace(/'(?:[^'\\]|\\.)*'/g, '?')
    .replace(/\bX'[0-9a-f]*'|0x[0-9a-f]+/gi, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)(?:\s*,\s*\(\s*\?(?:\s*,\s*\?)*\s*\))*/g, '(…)')
    .replace(/\s+/g, ' ')
    .slice(0, 300);
}

/** The profile as Markdown tables (top `n` of each), for the report and docs/performance.md. */
export function dbProfileMarkdown(
  p: { digests: DigestRow[]; slow: SlowLogSummary },
  jobs: number,
  n = 15,
): string {
  const perJob = (x: number) => (jobs > 0 ? (x / jobs).toFixed(3) : '');
  const lines = [
    `performance_schema statement digests over the window, ${jobs} jobs, largest total time first:`,
    '',
    '| share | calls | per job | mean µs | rows examined / sent / affected per call | statement |',
    '| ---: | ---: | ---: | ---: | --- | --- |',
    ...p.digests
      .slice(0, n)
      .map(
        (d) =>
          `| ${(d.share * 100).toFixed(1)}% | ${d.calls} | ${perJob(d.calls)} | ${d.meanUs} | ${d.rowsExamined} / ${d.rowsSent} / ${d.rowsAffected} | \`${d.statement.slice(0, 160).replaceAll('|', '\\|')}\` |`,
      ),
    '',
    `Slow log (long_query_time 0): ${p.slow.statements} statements in the window (${perJob(p.slow.statements)} per job).`,
    '',
  ];
  return lines.join('\n');
}

export function writeDbProfile(
  path: string,
  p: { digests: DigestRow[]; slow: SlowLogSummary },
  jobs: number,
): void {
  // The top 60 digests and 40 shapes, each statement cut at 400 characters: a long IN list is noise.
  const kept = {
    digests: p.digests.slice(0, 60).map((d) => ({ ...d, statement: d.statement.slice(0, 400) })),
    slow: { ...p.slow, byShape: p.slow.byShape.slice(0, 40) },
  };
  writeFileSync(
    path,
    `${dbProfileMarkdown(p, jobs, 40)}\n\n\`\`\`json\n${JSON.stringify(kept, null, 1)}\n\`\`\`\n`,
  );
}
