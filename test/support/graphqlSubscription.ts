import { ServerSentEventsClient } from './serverSentEvents';

/** One result of a subscription, as graphql-yoga sends it in an `event: next`. */
export interface SubscriptionResult {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, any> }[];
}

/**
 * A client of the analysts' GraphQL subscriptions over real HTTP: POSTs the document asking for
 * Server-Sent Events (graphql-yoga's default protocol: `event: next` with a result, `event:
 * complete` at the end), parses them with eventsource-parser as they arrive and keeps every result.
 */
export class SubscriptionClient extends ServerSentEventsClient {
  readonly results: SubscriptionResult[] = [];
  completed = false;
  /** With an answer that is no stream: its status and JSON (the error envelope, or a GraphQL answer). */
  refusal?: { status: number; body: any };

  /** POSTs the document (or, with `method: 'GET'`, sends it in the query string, as GraphiQL does) asking for Server-Sent Events. */
  static async open(
    base: string,
    credential: { key?: string; cookie?: string },
    document: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
    method: 'GET' | 'POST' = 'POST',
  ): Promise<SubscriptionClient> {
    const controller = new AbortController();
    const params = { query: document, variables: JSON.stringify(variables) };
    const response = await fetch(`${base}/analyst/graphql${method === 'GET' ? `?${new URLSearchParams(params)}` : ''}`, {
      method,
      headers: {
        accept: 'text/event-stream',
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(credential.key ? { authorization: `Bearer ${credential.key}` } : {}),
        ...(credential.cookie ? { cookie: credential.cookie } : {}),
        ...headers,
      },
      body: method === 'POST' ? JSON.stringify({ query: document, variables }) : undefined,
      signal: controller.signal,
    });
    const opened = new SubscriptionClient(response.status, response.headers, controller);
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      opened.refusal = { status: response.status, body: await response.json() };
      opened.closed = true;
      return opened;
    }
    void opened.read(response.body!, {
      event: (event) => {
        if (event.event === 'next') opened.results.push(JSON.parse(event.data) as SubscriptionResult);
        if (event.event === 'complete') opened.completed = true;
      },
    });
    return opened;
  }

  protected received() {
    return `${this.results.length} results: ${JSON.stringify(this.results).slice(0, 500)}`;
  }

  /** The events of the results so far (`data.events`). */
  get events(): Record<string, any>[] {
    return this.results.flatMap((result) => (result.data?.events ? [result.data.events as Record<string, any>] : []));
  }

  /** Waits for an event this predicate takes, and answers it. */
  async next(predicate: (event: Record<string, any>) => boolean, timeoutMs = 5000, what = 'the event'): Promise<Record<string, any>> {
    await this.until(() => this.events.some(predicate), timeoutMs, what);
    return this.events.find(predicate)!;
  }
}
