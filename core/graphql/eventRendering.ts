import { execute } from 'graphql';
import { restEvent } from '../../contract/eventShape';
import { loadOperations } from '../../contract/operations';
import { eventId } from '../domain/events';
import type { EventRenderer } from '../services/webhookDeliveries';
import { contextFor, type ContextDeps } from './context';
import { schema } from './schema';


/**
 * Renders events for webhook deliveries exactly as REST lists them: the persisted ListEvents
 * document (its aliases are the REST names) executed against this core's schema in the endpoint's
 * workspace and environment (the event just after seq − 1), then the REST event shape
 * (contract/eventShape.ts), as the gateway gives it.
 */
export function eventRenderer(deps: ContextDeps): EventRenderer {
  const document = loadOperations().get('ListEvents')?.document;
  if (!document) throw new Error('the persisted operation ListEvents is missing');
  return async (endpoint, seq, deadline) => {
    const principal = { kind: 'webhook' as const, workspaceId: endpoint.workspaceId, endpointId: endpoint.id, environment: endpoint.environment };
    const result = await execute({
      schema,
      document,
      variableValues: { after: eventId(seq - 1n), limit: 1 },
      contextValue: contextFor({ ...deps, keepAlive: undefined }, principal, deadline),
    });
    if (result.errors?.length) throw result.errors[0]!;
    const [item] = (result.data as { events: { data: (Record<string, unknown> & { id: string; object: string })[] } }).events.data;
    return item && item.id === eventId(seq) ? restEvent(item) : null;
  };
}
