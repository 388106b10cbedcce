/**
 * Complex orders (sweep, passive, TWAP parents and their children), one module a responsibility:
 * placement.ts places one; claims.ts claims the children that are due or stale; sending.ts sends a
 * claimed child as an order (repricing.ts prices a TWAP slice on the book of its time);
 * settlement.ts closes a parent whose children are final (the decision is
 * domain/orderLifecycle.ts's settleDecision); cancellation.ts cancels one; queries.ts reads them;
 * prediction.ts is what a parent keeps of its plan.
 */
export { placeComplexOrder } from './placement';
export { retryStaleChildren, sendDueChildren } from './claims';
export { settleComplexOrder, settleFinishedComplexOrders } from './settlement';
export { cancelComplexOrder } from './cancellation';
export { getComplexOrder, listChildOrders, listComplexOrders, type ComplexOrderFilter } from './queries';
export { midOfPlan, predictionOf, type StoredPrediction } from './prediction';
