import { setMaxListeners } from 'node:events';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import type { Environment } from './environment';
import { redisClient } from './redisClient';

/**
 * "The event log of this workspace and environment now reaches `seq`": said by the core that
 * numbered the events (core/services/events/eventSequencer.ts), heard by every gateway's event streams and
 * every core's GraphQL subscriptions, which then read the new events from the database (the truth;
 * a notice carries no event). Several notices may be lost or merged without harm: a reader always
 * reads from where it stopped, and readers also look on their own every few seconds.
 */
export interface EventNotice {
  workspaceId: string;
  environment: Environment;
  seq: string;
}

export const EVENT_NOTICE_TOPIC = 'mk:event-log';

/**
 * "A book of this market may have moved, or a trade been recorded": said by the core that placed
 * or canceled an order there (after recording it), heard by every gateway's market-data streams
 * (gateway/marketStreams.ts), which then read the market again. Carries no data; lost or merged
 * notices cost only latency: the streams also read every MARKET_STREAM_POLL_MS.
 */
export interface MarketNotice {
  marketId: string;
}

export const MARKET_NOTICE_TOPIC = 'mk:market-data';

type Topics = { [EVENT_NOTICE_TOPIC]: [EventNotice]; [MARKET_NOTICE_TOPIC]: [MarketNotice] };

export interface EventNotices {
  readonly pubSub: PubSub<Topics>;
  readonly shared: boolean;
  close(): Promise<void>;
}

/**
 * graphql-yoga's PubSub: over Redis pub/sub (`@graphql-yoga/redis-event-target`) when REDIS_URL is
 * set, so that a notice from any core reaches every gateway and core; in-process otherwise (core and
 * gateway in one process). A Redis that is away loses notices (readers catch up by looking), never
 * an error thrown at the sequencer or an unhandled rejection.
 */
export function createEventNotices(redisUrl: string | undefined): EventNotices {
  if (!redisUrl) {
    // Every subscription and event-stream hub of the process listens here: no warning past Node's 10 listeners.
    const eventTarget = new EventTarget();
    setMaxListeners(0, eventTarget);
    return { pubSub: createPubSub<Topics>({ eventTarget: eventTarget as never }), shared: false, close: async () => undefined };
  }
  const publisher = redisClient(redisUrl);
  const subscriber = redisClient(redisUrl);
  const quiet = <T>(promise: Promise<T>) => void promise.catch(() => undefined);
  // SUBSCRIBE again on every connection, as the revocation bus does: one sent before the connection
  // is ready can time out (REDIS_COMMAND_TIMEOUT_MS), and ioredis re-subscribes after a reconnect
  // only what once succeeded; without this, a core or gateway could stay deaf to every notice.
  const channels = new Set<string>();
  subscriber.on('ready', () => {
    for (const channel of channels) quiet(subscriber.subscribe(channel));
  });
  const eventTarget = createRedisEventTarget({
    publishClient: { publish: (channel: string, message: string) => quiet(publisher.publish(channel, message)) } as never,
    subscribeClient: {
      on: (event: string, listener: (...args: unknown[]) => void) => subscriber.on(event, listener),
      subscribe: (channel: string) => {
        channels.add(channel);
        if (subscriber.status === 'ready') quiet(subscriber.subscribe(channel));
      },
      unsubscribe: (channel: string) => {
        channels.delete(channel);
        quiet(subscriber.unsubscribe(channel));
      },
    } as never,
  });
  return {
    pubSub: createPubSub<Topics>({ eventTarget }),
    shared: true,
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
