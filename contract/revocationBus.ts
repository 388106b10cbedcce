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
   * Whether this process hears revocations now. While it does not (its Redis subscription is down),
   * a revocation may pass it by: an authentication cache must then keep nothing (fail closed).
   */
  listening(): boolean;
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
  listening() {
    return true;
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
          () => void (this.subscribed = true),
          () => undefined, // the next connection subscribes again
        );
      });
      subscriber.on('close', () => void (this.subscribed = false));
      subscriber.on('message', (_channel: string, keyId: string) => this.listeners.forEach((l) => l(keyId)));
    }
  }
  listening() {
    return this.subscribed;
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
