import fs from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../../core/graphql/schema';

describe('schema.graphql', () => {
  it('is what the core builds (run `npm run schema` after changing core/graphql)', () => {
    const checkedIn = fs.readFileSync(path.resolve(__dirname, '../../schema.graphql'), 'utf8');
    expect(checkedIn).toBe(printedSchema());
  });
});
