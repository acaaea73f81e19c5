import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { REPO_ROOT } from '@dsched/testkit/names';

// What the image holds, built the way the Dockerfile builds it but without Docker: the build
// context (.dockerignore: sources, manifests, lockfile; no tests, no node_modules) and a
// production-only install from the lockfile. Services started from it prove they need no dev
// dependency at run time.

const CONTEXT = [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'packages',
  'services',
  'apps',
  'scripts',
  'loadtest',
  'deploy/docker',
];
const LEFT_OUT = new Set(['node_modules', 'test', '.stack', 'dist']);

export interface ImageTree {
  root: string;
  entrypoint: string;
  remove(): void;
}

export function productionInstall(): ImageTree {
  const root = mkdtempSync(join(tmpdir(), 'dsched-image-'));
  for (const path of CONTEXT) {
    cpSync(`${REPO_ROOT}${path}`, join(root, path), {
      recursive: true,
      filter: (source) => !LEFT_OUT.has(basename(source)) && !source.endsWith('.test.ts'),
    });
  }
  const install = spawnSync('pnpm', ['install', '--prod', '--frozen-lockfile', '--prefer-offline'], {
    cwd: root,
    env: { ...process.env, CI: 'true' },
    encoding: 'utf8',
  });
  if (install.status !== 0)
    throw new Error(`pnpm install --prod failed:\n${install.stderr}${install.stdout}`);
  rmSync(join(root, 'loadtest'), { recursive: true, force: true });
  return {
    root,
    entrypoint: join(root, 'deploy/docker/entrypoint.sh'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
