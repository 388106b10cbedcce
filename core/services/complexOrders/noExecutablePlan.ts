import { DomainError } from '../../domain/errors';
import type { ExecutionPlan } from '../../domain/planning';

/** The refusal of an order no alternative of its plan can execute, with the alternatives' reasons. */
export function noExecutablePlan(plan: ExecutionPlan): DomainError {
  const reasons = [...new Set(plan.alternatives.map((a) => a.infeasibleReason).filter(Boolean))];
  return new DomainError(
    'no_executable_plan',
    `No ${plan.strategy} alternative can execute this order${reasons.length ? ` (${reasons.join(', ')})` : ''}; preview it to see each alternative.`,
  );
}
