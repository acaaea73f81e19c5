// MySQL returns JSON columns parsed; MariaDB stores JSON as LONGTEXT and returns a string.
export function readJson<T>(value: unknown): T {
  if (value === null || value === undefined) return value as T;
  if (typeof value === 'string') return JSON.parse(value) as T;
  if (Buffer.isBuffer(value)) return JSON.parse(value.toString('utf8')) as T;
  return value as T;
}

export function writeJson(value: unknown): string {
  return JSON.stringify(value);
}
