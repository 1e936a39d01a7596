// A restore (or reset) the durable store refuses to write: the control API answers 503 `state_not_saved`, as any
// refused commit is answered, not 400 as if the snapshot were at fault, and the mock keeps serving what the store holds.
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { createControlApi } from '../src/testkit/control-api.js';
import { refusingStore } from './support/memory-store.js';
import { FROZEN_AT, newKey } from './support/keys.js';

describe('a restore the store cannot write', () => {
  it('is 503 state_not_saved, changes nothing, and the same restore succeeds once the store can write', async () => {
    const disk = refusingStore();
    const mock = createMockServer({ frozenClock: FROZEN_AT, journal: disk.journal });
    const key = newKey();
    const customers = async () => {
      const answer = await mock.handle(
        new Request('http://127.0.0.1:4010/v1/customers', { headers: { Authorization: `Bearer ${key}` } }),
      );
      return ((await answer.json()) as { data: { email: string }[] }).data.map((customer) => customer.email);
    };
    const create = (email: string) =>
      mock.handle(
        new Request('http://127.0.0.1:4010/v1/customers', {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email }),
        }),
      );
    expect((await create('before@example.com')).status).toBe(201);
    const snapshot = mock.snapshot();
    expect((await create('after@example.com')).status).toBe(201);

    const token = 'a'.repeat(64);
    const control = createControlApi(mock, { token });
    const restore = () =>
      control(
        new Request('http://127.0.0.1:4010/__cardrail/snapshot', {
          method: 'PUT',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(snapshot),
        }),
      );
    disk.refusing = true;
    const refused = await restore();
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 'state_not_saved', details: { reason: 'database or disk is full' } },
    });
    disk.refusing = false;
    expect(await customers()).toEqual(['after@example.com', 'before@example.com']);

    expect((await restore()).status).toBe(204);
    expect(await customers()).toEqual(['before@example.com']);
  });
});
