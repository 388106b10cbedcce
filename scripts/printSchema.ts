/** `npm run schema`: writes the core's SDL to schema.graphql (checked in; a test fails on drift). */
import fs from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../core/graphql/schema';

fs.writeFileSync(path.resolve(__dirname, '../schema.graphql'), printedSchema());
console.log('wrote schema.graphql');
