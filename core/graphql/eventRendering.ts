import { execute } from 'graphql';
import { restEvent } from '../../contract/eventShape';
import { loadOperations } from '../../contract/operations';
import { DomainError } from '../domain/errors';
import { eventId } from '../../contract/eventTypes';
import type { EventRenderer } from '../services/events/webhookDeliveries';
import { contextFor, type ContextDeps } from './context';
import { schema } from './schema';


/**
 * Renders events for webhook deliveries exactly as REST lists them: the persisted ListEvents
 * document (its aliases are the REST names) executed against this core's schema in the endpoint's
 * workspace and environment (the event just after seq − 1), then the REST event shape
 * (contract/eventShape.ts), as the gateway gives it; null when the log no longer has the event.
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
    const [error] = result.errors ?? [];
    if (error) {
      // Deleted by the retention sweeper (its workspace's horizon has passed seq − 1): no such event any more.
      if (error.originalError instanceof DomainError && error.originalError.code === 'events_expired') return null;
      throw error;
    }
    const [item] = (result.data as { events: { data: (Record<string, unknown> & { id: string; object: string })[] } }).events.data;
    return item && item.id === eventId(seq) ? restEvent(item) : null;
  };
}
