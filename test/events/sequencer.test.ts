/**
 * The event log's numbering (docs/events.md "In commit order"): events written by transactions that
 * commit in another order than they began, numbered by two sequencers at once (as two cores do),
 * read by a reader that only ever asks for "after the last number I have". The reader must end with
 * every event exactly once, numbered without a gap, in the order the numbers were given: the
 * property the event streams' replay and fan-out rest on.
 */
import { Pool } from 'pg';
import { ownDatabase } from '../support/ownDatabase';

jest.setTimeout(60_000);

let pool: Pool;
const WORKSPACE = 'ws_sequencer_test';

beforeAll(async () => {
  pool = new Pool({ connectionString: await ownDatabase('event_sequencer'), max: 16 });
});
afterAll(async () => {
  await pool?.end();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('transactions committing out of order, two sequencers, one reader: every event once, gapless, in number order', async () => {
  const WRITERS = 8;
  const PER_WRITER = 25;
  let writing = true;

  // Each writer's transaction inserts an event, then waits a random while before it commits: later
  // inserts commit first all the time.
  const writer = async (w: number) => {
    const client = await pool.connect();
    try {
      for (let i = 0; i < PER_WRITER; i += 1) {
        await client.query('BEGIN');
        await client.query(
          `SELECT mk_record_event('order.accepted', $1, 'test'::"Environment", NULL, 'order', $2, NULL, '{}'::jsonb)`,
          [WORKSPACE, `ord_${w}_${i}`],
        );
        await client.query('SELECT pg_sleep($1)', [Math.random() * 0.02]);
        await client.query('COMMIT');
      }
    } finally {
      client.release();
    }
  };
  const sequencer = async () => {
    while (writing) {
      await pool.query('SELECT * FROM mk_sequence_events(7)');
      await sleep(1);
    }
    // The last events, numbered once every writer is done.
    for (;;) {
      const { rowCount } = await pool.query('SELECT * FROM mk_sequence_events(1000)');
      if (!rowCount) return;
    }
  };
  const seen: number[] = [];
  const reader = async () => {
    let cursor = 0;
    for (let idle = 0; writing || idle < 20; ) {
      const { rows } = await pool.query<{ number: string }>('SELECT seq::text AS number FROM events WHERE workspace_id = $1 AND seq > $2 ORDER BY events.seq', [WORKSPACE, cursor]);
      for (const row of rows) seen.push(Number(row.number));
      if (rows.length) {
        cursor = Number(rows[rows.length - 1]!.number);
        idle = 0;
      } else {
        idle += 1;
      }
      await sleep(2);
    }
  };

  const sequencers = [sequencer(), sequencer()];
  const reading = reader();
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  writing = false;
  await Promise.all(sequencers);
  await reading;

  const total = WRITERS * PER_WRITER;
  const { rows } = await pool.query<{ n: string; numbered: string; min: string; max: string }>(
    'SELECT count(*) AS n, count(seq) AS numbered, min(seq) AS min, max(seq) AS max FROM events WHERE workspace_id = $1',
    [WORKSPACE],
  );
  expect(rows[0]).toEqual({ n: String(total), numbered: String(total), min: '1', max: String(total) });
  expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  // The writes really committed out of insert order: numbers do not follow insert order everywhere.
  const { rows: inversions } = await pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM events a JOIN events b ON a.recorded_id < b.recorded_id AND a.seq > b.seq WHERE a.workspace_id = $1 AND b.workspace_id = $1',
    [WORKSPACE],
  );
  expect(Number(inversions[0]!.n)).toBeGreaterThan(0);
});
