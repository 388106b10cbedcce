/**
 * The OpenAPI document is a contract a client can be generated from: the document a running
 * gateway serves goes through openapi-typescript (its CLI, as a user would run it), a flow written
 * against the generated types (clientFlow/flow.ts, openapi-fetch) must type-check under `strict`,
 * and then runs against the real service: create a subaccount, list markets, place an order
 * (retried with its Idempotency-Key), read it, cancel it, trade, list fills and positions, and
 * read two errors in the envelope.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

jest.setTimeout(120_000);

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

let stack: Stack;
let base: string;
let secret: string;
let dir: string;

beforeAll(async () => {
  stack = await startStack(testConfig());
  base = stack.gateways[0];
  ({ secret } = await buildWorkspace(stack.core.db));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'generated-client-'));
  // The generated client resolves openapi-fetch and tsx from the project, as an installed package would.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.copyFileSync(path.join(__dirname, 'clientFlow/flow.ts'), path.join(dir, 'flow.ts'));
});
afterAll(async () => {
  await stack.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('generates a TypeScript client from the served document; a strictly typed flow compiles against it and runs end to end', async () => {
  // The document as served, not as built in this process.
  const served = await fetch(`${base}/v1/openapi.json`);
  expect(served.status).toBe(200);
  fs.writeFileSync(path.join(dir, 'openapi.json'), await served.text());
  await run(process.execPath, [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'openapi.d.ts'], { cwd: dir });
  const generated = fs.readFileSync(path.join(dir, 'openapi.d.ts'), 'utf8');
  for (const name of ['Order', 'Fill', 'Market', 'Subaccount', 'Position', 'Receipt', 'ComplexOrder', 'Error']) {
    expect(generated).toMatch(new RegExp(`^        ${name}: \\{`, 'm'));
  }

  expect(typeErrors(path.join(dir, 'flow.ts'))).toEqual([]);

  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'flow.ts', base, secret], { cwd: dir });
  // The flow's FlowReport; its type exists only beside the generated declarations.
  const report = JSON.parse(stdout);
  expect(report.subaccount).toMatchObject({ id: expect.stringMatching(/^sa_/), name: 'generated client', cash_balance: '1000', status: 'active' });
  expect(report.marketCount).toBeGreaterThan(0);
  expect(report.resting).toMatchObject({ status: 'open', price: '0.01', quantity: '3', subaccount_id: report.subaccount.id });
  expect(report.replayed).toBe('true');
  expect(report.read).toMatchObject({ id: report.resting.id, status: 'open' });
  expect(report.canceled).toMatchObject({ id: report.resting.id, status: 'canceled', filled_quantity: '0' });
  expect(report.filled).toMatchObject({ type: 'market', status: 'filled', quantity: '2', remaining_quantity: '0' });
  expect(report.fills.length).toBeGreaterThan(0);
  for (const fill of report.fills) expect(fill).toMatchObject({ order_id: report.filled.id, subaccount_id: report.subaccount.id });
  expect(report.positions).toEqual([
    expect.objectContaining({ subaccount_id: report.subaccount.id, market_id: report.filled.market_id, side: 'yes', quantity: '2' }),
  ]);
  expect(report.unknownOrder.status).toBe(404);
  expect(report.unknownOrder.error.error).toMatchObject({ code: 'not_found', request_id: report.unknownOrder.requestIdHeader });
  expect(report.unknownFilter).toMatchObject({ status: 404, error: { error: { code: 'not_found', param: 'subaccount_id' } } });
});

/** The compiler's complaints about `file` under strict settings, the generated declarations checked too. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: false,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => !diagnostic.file || !diagnostic.file.fileName.includes('/node_modules/'))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}
