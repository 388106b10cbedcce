import { GraphQLError, Kind } from 'graphql';
import { formatDecimal } from '../../domain/decimals';
import { INSTANT_RULE, isStorableInstant } from '../../../contract/instants';
import { builder } from '../builder';

/** Money, prices and quantities: decimal strings in and out, never floats. */
builder.scalarType('Decimal', {
  description: 'A decimal number as a string, e.g. "0.43" or "125".',
  serialize: (value) => formatDecimal(value)!,
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError('A Decimal is given as a string, e.g. "0.43".');
    return value; // range and format are the domain's to judge, with the field's name
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('A Decimal is given as a string, e.g. "0.43".');
    return ast.value;
  },
});

builder.scalarType('DateTime', {
  description: 'An instant in RFC 3339 UTC, e.g. "2026-11-22T10:00:00.000Z"; from year 0001 to 9999.',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => parseDateTime(value),
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
});

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' && RFC3339.test(value) ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new GraphQLError('A DateTime is an RFC 3339 string such as "2026-11-22T10:00:00Z".');
  }
  // PostgreSQL stores no year 0 (nor RFC 3339 a fifth digit): refused here, not by the statement.
  if (!isStorableInstant(date)) throw new GraphQLError(`A DateTime ${INSTANT_RULE}.`);
  return date;
}

builder.scalarType('JSON', {
  description: 'A JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});
