/** Execution quality (TCA) of a parent order: see docs/tca.md. */
export { computeExecutionQuality } from './executionQuality';
export type * from './types';
