import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// Builds the console into apps/console/dist: index.html, app.js, app.css and their .gz (which
// @fastify/static serves to browsers that accept gzip). One esbuild call, well under a second;
// scripts/up.sh, scripts/test.sh and the browser tests run it, so the files are never committed.

export const CONSOLE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = `${CONSOLE_ROOT}dist/`;

export interface ConsoleWeight {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export async function buildConsole(): Promise<ConsoleWeight[]> {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  await build({
    entryPoints: { app: `${CONSOLE_ROOT}src/main.tsx`, style: `${CONSOLE_ROOT}src/style.css` },
    outdir: DIST,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  writeFileSync(`${DIST}index.html`, readFileSync(`${CONSOLE_ROOT}src/index.html`));
  return ['index.html', 'app.js', 'style.css'].map((file) => {
    const body = readFileSync(`${DIST}${file}`);
    const gz = gzipSync(body, { level: 9 });
    writeFileSync(`${DIST}${file}.gz`, gz);
    return { file, bytes: body.length, gzipBytes: gz.length };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const weights = await buildConsole();
  for (const w of weights) console.log(`${w.file.padEnd(11)} ${w.bytes} B, ${w.gzipBytes} B gzip`);
  const js = weights.filter((w) => w.file !== 'index.html').reduce((n, w) => n + w.gzipBytes, 0);
  console.log(`console JS+CSS: ${js} B gzip (${(js / 1024).toFixed(1)} KiB)`);
}
