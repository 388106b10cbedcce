import { Prisma } from '../generated/prisma/client';

const ENUM_LABEL = /^[a-z][a-z_]*$/;

/**
 * A constant list of enum labels (a status list of core/domain/orderLifecycle.ts) as a SQL literal
 * list, `('pending', 'open')`, for `status IN ${sqlList(WORKING_STATUSES)}`. Literals, not bind
 * parameters: the statement text, and so the planner's choice of partial indexes and its plans, stay
 * what they were when the lists were written out by hand. Only lower-case enum labels are accepted,
 * so nothing a client sends can reach the SQL text this way.
 */
export function sqlList(labels: readonly string[]): Prisma.Sql {
  if (labels.length === 0) throw new Error('sqlList needs at least one label');
  for (const label of labels) {
    if (!ENUM_LABEL.test(label)) throw new Error(`sqlList takes enum labels only, not ${JSON.stringify(label)}`);
  }
  return Prisma.raw(`(${labels.map((label) => `'${label}'`).join(', ')})`);
}
