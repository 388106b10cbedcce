import { Writable } from 'node:stream';
import pino from 'pino';
import { failureStreak } from '../../core/support/failureStreak';

/** A background job's failures are said once per streak, with how to set it; its recovery once. */
test('the first failure of a streak warns with the remedy, the next ones are debug only, a success after them is said once', () => {
  const lines: { level: number; msg: string; failures?: number }[] = [];
  const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }));
  const streak = failureStreak(logger, { job: 'The sync (http://x)', consequence: 'nothing changes', howToSet: 'set SYNC=0 to turn it off' });
  for (let i = 0; i < 4; i += 1) streak.failed(new Error('ECONNREFUSED'));
  streak.succeeded();
  streak.succeeded();
  streak.failed(new Error('again'));
  const atLevel = (level: number) => lines.filter((line) => line.level === level).map((line) => line.msg);
  expect(atLevel(40)).toEqual([
    'The sync (http://x) failed: nothing changes. It is tried again at each interval and this is said once until it succeeds; set SYNC=0 to turn it off',
    'The sync (http://x) failed: nothing changes. It is tried again at each interval and this is said once until it succeeds; set SYNC=0 to turn it off',
  ]);
  expect(atLevel(20)).toEqual(['The sync (http://x) failed again', 'The sync (http://x) failed again', 'The sync (http://x) failed again']);
  expect(atLevel(30)).toEqual(['The sync (http://x) succeeded after 4 failed attempts']);
});
