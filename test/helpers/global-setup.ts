import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

/**
 * Migrates once per run instead of once per harness (issue #31: `npm test` under 4 minutes). On PGlite a fresh
 * cluster costs ~2.5 s of initdb plus the migrations; the harness instead loads this run's image of a migrated
 * cluster (~0.5 s). On PostgreSQL each harness's database is a copy of a migrated template database
 * (`CREATE DATABASE … TEMPLATE`). Both are removed when the run ends.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a migrated PGlite data directory image (dumpDataDir), or '' when the run is on PostgreSQL. */
    pgliteImagePath: string;
    /** Name of the migrated template database on the TEST_DATABASE_URL server, or ''. */
    postgresTemplate: string;
  }
}

async function adminQuery(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const id = randomUUID().replace(/-/g, '').slice(0, 16);
  if (process.env.TEST_DATABASE_URL) {
    const name = `tpl_${id}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), dataDir: os.tmpdir(), poolSize: 1 });
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
    project.provide('postgresTemplate', name);
    project.provide('pgliteImagePath', '');
    return async () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const file = path.join(os.tmpdir(), `vtu-test-pglite-${id}.tar`);
  const database = await openDatabase({ url: 'memory://', dataDir: os.tmpdir() });
  try {
    await migrate(database);
    const image = await (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('pgliteImagePath', file);
  project.provide('postgresTemplate', '');
  return async () => fs.rmSync(file, { force: true });
}
