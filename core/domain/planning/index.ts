/** The execution planner (pure): see docs/execution-planning.md. */
export { planExecution } from './planExecution';
export { consolidatedArrivalMid } from './arrivalMid';
export { MAX_TWAP_SLICES, DEFAULT_SECONDS_PER_TWAP_SLICE, requireStrategy } from './parentOrder';
export { EXECUTION_STRATEGIES } from './types';
export {
  averagePrice,
  bpsOf,
  slippageBps,
  directionOf,
  type Direction,
} from './executionFigures';
export type * from './types';
