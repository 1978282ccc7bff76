import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { call, createHarness, signIn, type Harness, type TestUser } from '../helpers/harness.js';

const op = (name: string) => `/_serverFn/${name}BearerAdmin`;
let h: Harness;
let admin: TestUser;
let support: TestUser;

beforeAll(async () => {
  h = await createHarness({ env: { OPERATOR_2FA: 'optional' } });
  admin = await signIn(h, 'admin@example.com');
  support = await signIn(h);
  const granted = await call(h, 'POST', op('adminGrantRole'), { email: support.email, role: 'support' }, { token: admin.token });
  expect(granted.statusCode, granted.body).toBe(200);
});
afterAll(async () => h?.close());

const save = (u: TestUser, input: Record<string, unknown>) => call(h, 'POST', op('adminSaveCannedReply'), input, { token: u.token });
const list = (u: TestUser) => call(h, 'GET', op('adminListCannedReplies'), undefined, { token: u.token });
const remove = (u: TestUser, id: string) => call(h, 'POST', op('adminDeleteCannedReply'), { id }, { token: u.token });
const auditOf = (action: string, id: string) =>
  rows<{ actor_id: string; outcome: string; before_state: any; after_state: any }>(
    h.app.services.db,
    sql`SELECT actor_id::text AS actor_id, outcome, before_state, after_state FROM audit_log WHERE action = ${action} AND subject_id = ${id} ORDER BY created_at`,
  );

describe('saved replies', () => {
  it('an admin creates, edits and deletes one; support lists but cannot save or delete; each write is audited', async () => {
    const created = await save(admin, { title: '  Delayed airtime ', body: 'Hello {name}, your airtime is on its way.' });
    expect(created.statusCode, created.body).toBe(200);
    const reply = created.json().reply;
    expect(reply).toMatchObject({ title: 'Delayed airtime', body: 'Hello {name}, your airtime is on its way.' });

    const seen = await list(support);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().items).toContainEqual(expect.objectContaining({ id: reply.id, title: 'Delayed airtime' }));

    const refused = await save(support, { title: 'Support wrote this', body: 'x' });
    expect(refused.statusCode).toBe(403);
    expect((await remove(support, reply.id)).statusCode).toBe(403);
    expect((await list(admin)).json().items.some((r: { title: string }) => r.title === 'Support wrote this')).toBe(false);

    const edited = await save(admin, { id: reply.id, title: 'Delayed airtime', body: 'Hi {name}, it is delivered now.' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().reply).toMatchObject({ id: reply.id, body: 'Hi {name}, it is delivered now.' });

    const saves = await auditOf('adminSaveCannedReply', reply.id);
    expect(saves).toHaveLength(2);
    expect(saves.every((r) => r.actor_id === admin.id && r.outcome === 'ok')).toBe(true);
    // The test clock stands still, so both rows may share created_at: the creation is the one with nothing before it.
    const [create, edit] = [saves.find((r) => r.before_state === null), saves.find((r) => r.before_state !== null)];
    expect(create).toMatchObject({ after_state: { title: 'Delayed airtime' } });
    expect(edit!.before_state).toEqual({ title: 'Delayed airtime', body: 'Hello {name}, your airtime is on its way.' });
    expect(edit!.after_state).toEqual({ title: 'Delayed airtime', body: 'Hi {name}, it is delivered now.' });

    const deleted = await remove(admin, reply.id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await list(admin)).json().items.some((r: { id: string }) => r.id === reply.id)).toBe(false);
    expect(await auditOf('adminDeleteCannedReply', reply.id)).toEqual([
      expect.objectContaining({ actor_id: admin.id, outcome: 'ok', before_state: expect.objectContaining({ title: 'Delayed airtime' }) }),
    ]);
  });

  it('answers 400 with a clear message for a bad title or body', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ body: 'b' }, 'title is required'],
      [{ title: '   ', body: 'b' }, 'title must not be empty'],
      [{ title: 'x'.repeat(61), body: 'b' }, 'title must be at most 60 characters'],
      [{ title: 't' }, 'body is required'],
      [{ title: 't', body: '  ' }, 'body must not be empty'],
      [{ title: 't', body: 'x'.repeat(2001) }, 'body must be at most 2000 characters'],
      [{ id: 'nope', title: 't', body: 'b' }, 'id must be'],
    ];
    for (const [input, message] of cases) {
      const res = await save(admin, input);
      expect(res.statusCode, JSON.stringify(input)).toBe(400);
      expect(res.json().error.message.toLowerCase()).toContain(message);
    }
    expect((await save(admin, { title: 'x'.repeat(60), body: 'x'.repeat(2000) })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id and 409 for a duplicate title (regardless of case)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await save(admin, { id: unknown, title: 'Ghost', body: 'b' })).statusCode).toBe(404);
    expect((await remove(admin, unknown)).statusCode).toBe(404);

    const first = (await save(admin, { title: 'Refund policy', body: 'We refund failed purchases.' })).json().reply;
    const dup = await save(admin, { title: 'REFUND POLICY', body: 'Another.' });
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toContain('already exists');

    const other = (await save(admin, { title: 'Greeting', body: 'Hello {name}' })).json().reply;
    const renamed = await save(admin, { id: other.id, title: 'refund policy', body: 'Hello {name}' });
    expect(renamed.statusCode).toBe(409);
    expect((await list(admin)).json().items.find((r: { id: string }) => r.id === other.id).title).toBe('Greeting');
    expect((await list(admin)).json().items.filter((r: { id: string }) => r.id === first.id)).toHaveLength(1);
  });
});
