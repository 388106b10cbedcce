import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { redisClient } from './redisClient';

/**
 * Tells every gateway that an API key was revoked, so that its authentication cache forgets the
 * key at once. Redis pub/sub when REDIS_URL is set (several gateway replicas); an in-process
 * emitter otherwise (gateway and core in one process).
 */
export interface RevocationBus {
  readonly shared: boolean;
  publish(keyId: string): Promise<void>;
  subscribe(listener: (keyId: string) => void): void;
  /**
   * Resolves when revocations can be sent and heard (readiness probes): Redis answers, and this
   * process's subscription, if it has one, is connected. Rejects otherwise.
   */
  ready(): Promise<void>;
  /**
   * Which unbroken stretch of hearing revocations this process is in: a number that changes each
   * time its subscription comes back after a loss, or undefined while it is down. A revocation sent
   * while it was down passed it by, so an authentication cache keeps nothing while it is undefined
   * and nothing from an earlier stretch (fail closed).
   */
  hearingSince(): number | undefined;
  close(): Promise<void>;
}

const CHANNEL = 'mk:api-key-revocations';

export function createRevocationBus(redisUrl: string | undefined): RevocationBus {
  return redisUrl ? new RedisRevocationBus(redisUrl) : new LocalRevocationBus();
}

class LocalRevocationBus implements RevocationBus {
  readonly shared = false;
  private readonly emitter = new EventEmitter();
  async publish(keyId: string) {
    this.emitter.emit('revoked', keyId);
  }
  subscribe(listener: (keyId: string) => void) {
    this.emitter.on('revoked', listener);
  }
  async ready() {}
  hearingSince() {
    return 0; // in-process: never lost
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}

class RedisRevocationBus implements RevocationBus {
  readonly shared = true;
  private readonly publisher: Redis;
  private subscriber?: Redis;
  private subscribed = false;
  /** How many times the subscription was made: each unbroken stretch of hearing has its own number. */
  private subscriptions = 0;
  private readonly listeners: ((keyId: string) => void)[] = [];

  constructor(private readonly url: string) {
    this.publisher = redisClient(url);
  }
  async publish(keyId: string) {
    await this.publisher.publish(CHANNEL, keyId);
    this.listeners.forEach((listener) => listener(keyId)); // this process, without the round trip
  }
  subscribe(listener: (keyId: string) => void) {
    this.listeners.push(listener);
    if (!this.subscriber) {
      const subscriber = redisClient(this.url);
      this.subscriber = subscriber;
      // SUBSCRIBE on every connection: one sent while Redis is away fails (and was an unhandled
      // rejection), and ioredis re-subscribes after a reconnect only what once succeeded.
      subscriber.on('ready', () => {
        subscriber.subscribe(CHANNEL).then(
          () => {
            this.subscriptions += 1;
            this.subscribed = true;
          },
          () => undefined, // the next connection subscribes again
        );
      });
      subscriber.on('close', () => void (this.subscribed = false));
      subscriber.on('message', (_channel: string, keyId: string) => this.listeners.forEach((l) => l(keyId)));
    }
  }
  hearingSince() {
    return this.subscribed ? this.subscriptions : undefined;
  }
  async ready() {
    await this.publisher.ping();
    // Without its subscription, this process hears no revocation until it is back.
    if (this.subscriber && !this.subscribed) throw new Error('the revocation subscription is not active');
  }
  async close() {
    this.subscriber?.disconnect();
    this.publisher.disconnect();
  }
}
