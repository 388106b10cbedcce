import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Reads a Server-Sent Events body to its end (fetch() streaming: the dashboard's event and market
 * streams), each message and each `retry:` handed on as parsed by eventsource-parser. A handler
 * that throws ends the read with its error.
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, handlers: { onEvent: (message: EventSourceMessage) => void; onRetry: (ms: number) => void }): Promise<void> {
  const parser = createParser(handlers);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(decoder.decode(chunk.value, { stream: true }));
}
