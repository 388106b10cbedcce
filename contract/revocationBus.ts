import { EventEmitter } from 'node:events';
import Redis from 'ioredis';

/**
 * Tells every gateway that an API key was revoked, so that its authentication cache forgets the
 * key at once. Redis pub/sub when REDIS_URL is set (several gateway replicas); an in-process
 * emitter otherwise (gateway and core in one process).
 */
export interface RevocationBus {
  readonly shared: boolean;
  publish(keyId: string): Promise<void>;
  subscribe(listener: (keyId: string) => void): void;
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
  async close() {
    this.emitter.removeAllListeners();
  }
}

class RedisRevocationBus implements RevocationBus {
  readonly shared = true;
  private readonly publisher: Redis;
  private subscriber?: Redis;
  private readonly listeners: ((keyId: string) => void)[] = [];

  constructor(private readonly url: string) {
    this.publisher = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }
  async publish(keyId: string) {
    await this.publisher.publish(CHANNEL, keyId);
    this.listeners.forEach((listener) => listener(keyId)); // this process, without the round trip
  }
  subscribe(listener: (keyId: string) => void) {
    this.listeners.push(listener);
    if (!this.subscriber) {
      this.subscriber = new Redis(this.url);
      void this.subscriber.subscribe(CHANNEL);
      this.subscriber.on('message', (_channel: string, keyId: string) => this.listeners.forEach((l) => l(keyId)));
    }
  }
  async close() {
    this.subscriber?.disconnect();
    this.publisher.disconnect();
  }
}
