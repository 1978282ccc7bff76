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
    const pglite = (database.db as unknown as { $client: { exec(q: string): Promise<unknown>; dumpDataDir(c: 'none'): Promise<Blob> } })
      .$client;
    // Every harness loads this image (about 140 times a run), and a load costs what PostgreSQL's start does: 16 MB of
    // shared buffers instead of 128 (a test's data fits many times over, and each buffer is set up at start), and
    // no template0/template1 (a test's in-memory cluster never creates a database) halve it, ~0.6 to ~0.3 s.
    await pglite.exec(`ALTER SYSTEM SET shared_buffers = '16MB'`);
    await pglite.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    await pglite.exec('DROP DATABASE template0');
    await pglite.exec('DROP DATABASE template1');
    await pglite.exec('CHECKPOINT');
    const image = await pglite.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('pgliteImagePath', file);
  project.provide('postgresTemplate', '');
  return async () => fs.rmSync(file, { force: true });
}
