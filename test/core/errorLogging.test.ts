import { Writable } from 'node:stream';
import { createPrismaClient, sqlPoolOf, type Db } from '../../core/db/prismaClient';
import { maskError } from '../../core/graphql/errorMasking';
import { createLogger } from '../../core/support/logger';
import { databaseUrl } from '../support/env';

/**
 * An internal error is logged with its real cause, so that a 500 can be diagnosed from the log
 * alone: Prisma's code, PostgreSQL's own code (SQLSTATE) and message, never the values of the
 * statement (Prisma 7's messages start with an empty line, which was all that used to be logged).
 */
describe('the log of an internal error', () => {
  let db: Db;
  const lines: string[] = [];
  const logger = createLogger('error', 'test', new Writable({ write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()) }));
  const logged = (error: unknown) => {
    lines.length = 0;
    expect(maskError(logger)(error).extensions).toMatchObject({ code: 'internal_error' });
    expect(lines).toHaveLength(1);
    return { line: lines[0], err: JSON.parse(lines[0]).err as Record<string, unknown> };
  };
  const failureOf = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      return error;
    }
    throw new Error('expected the database to refuse the statement');
  };

  beforeAll(() => {
    db = createPrismaClient(databaseUrl(), 1);
  });
  afterAll(() => db.$disconnect());

  it('a Prisma query PostgreSQL refused: Prisma’s code, SQLSTATE and PostgreSQL’s message, without the value', async () => {
    const error = await failureOf(() => db.subaccount.findFirst({ where: { id: 'sa_secret-value\u0000' } }));
    const { line, err } = logged(error);
    expect(err).toEqual({
      type: 'PrismaClientKnownRequestError', code: 'P2039', dbCode: '22021', dbKind: 'postgres', message: 'invalid byte sequence for encoding "UTF8"',
    });
    expect(line).not.toMatch(/secret-value|0x00|SELECT/);
  });

  it('a statement of the order path (pg directly): SQLSTATE and message, without the value', async () => {
    const error = await failureOf(() => sqlPoolOf(db).query('SELECT $1::date', ['0000-01-01']));
    const { line, err } = logged(error);
    expect(err).toEqual({ type: 'DatabaseError', code: '22008', dbCode: '22008', message: 'date/time field value out of range' });
    expect(line).not.toContain('0000-01-01');
  });

  it('any other error: its type and first line, as before', () => {
    expect(logged(new TypeError('x is not a function\n    at somewhere (file.ts:1:1)')).err).toEqual({ type: 'TypeError', message: 'x is not a function' });
  });
});
