import { randomUUID } from 'node:crypto';
import { DomainError, GrpcStatus, type Logger } from '@quire/service-kit';
import type { JetStreamClient } from 'nats';
import type { EventRow } from '../domain/events.ts';

/** Room left in a message for its headers (Nats-Msg-Id) below the server's max_payload. */
const HEADER_ROOM = 1024;
const ATTEMPTS = 3;

export class EventsNotStoredError extends DomainError {
  constructor() {
    super(GrpcStatus.UNAVAILABLE, 'events_not_stored', 'Events could not be stored, try again');
  }
}

/**
 * Splits a batch's rows into JetStream messages that fit the server's payload limit. A message's
 * body is the rows as JSONCompactEachRow (`batch_id` then ROW_COLUMNS), each row carrying the
 * message's id as `batch_id`, so the consumer hands the bytes to ClickHouse as they are.
 * Each line is written into the message's buffer as it is made: joining the lines and encoding
 * the text again cost more than making them.
 */
export function toMessages(rows: EventRow[], batchId: string, maxBytes: number): { id: string; body: Buffer }[] {
  const messages: { id: string; body: Buffer }[] = [];
  const buffer = Buffer.allocUnsafe(maxBytes);
  let size = 0;
  let rowsIn = 0;
  const id = () => `${batchId}.${messages.length}`;
  const flush = () => {
    if (rowsIn === 0) return;
    // A copy: the buffer serves the next message.
    messages.push({ id: id(), body: Buffer.from(buffer.subarray(0, size)) });
    size = 0;
    rowsIn = 0;
  };
  let prefix = JSON.stringify(id());
  // A line is `[`, the id, the values, `\n`. UTF-8 takes at most 3 bytes per UTF-16 unit: the
  // bytes are counted only near the limit.
  const fits = (values: string) => prefix.length + values.length * 3 + 2 <= maxBytes - size || prefix.length + Buffer.byteLength(values) + 2 <= maxBytes - size;
  for (const row of rows) {
    // The row's values in ROW_COLUMNS order (the row is built in that order), after the id.
    const values = JSON.stringify(Object.values(row));
    if (!fits(values)) {
      flush();
      prefix = JSON.stringify(id());
      // Cannot happen with the events' bounds (a row is a few KB at most, a message 1 MB).
      if (!fits(values)) throw new Error(`an event row is larger than a message (${maxBytes} bytes)`);
    }
    // `["<id>"` then the values' `[v1,...]` whose `[` becomes the comma: `["<id>",v1,...]`.
    buffer[size++] = 0x5b;
    size += buffer.write(prefix, size);
    const at = size;
    size += buffer.write(values, size);
    buffer[at] = 0x2c;
    buffer[size++] = 0x0a;
    rowsIn++;
  }
  flush();
  return messages;
}

/** Publishes batches of event rows and resolves once JetStream has stored every message. */
export class EventPublisher {
  constructor(
    private readonly js: JetStreamClient,
    private readonly subject: string,
    private readonly maxPayload: number,
    private readonly log: Logger,
  ) {}

  async publish(rows: EventRow[]): Promise<void> {
    if (rows.length === 0) return;
    const messages = toMessages(rows, randomUUID(), this.maxPayload - HEADER_ROOM);
    await Promise.all(messages.map((m) => this.publishOne(m.id, m.body)));
  }

  // A publish whose ack did not arrive is sent again with the same Nats-Msg-Id: the stream keeps
  // one copy whichever attempt reached it.
  private async publishOne(id: string, body: Buffer): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.js.publish(this.subject, body, { msgID: id, timeout: 5000 });
        return;
      } catch (err) {
        this.log.warn({ err, id, attempt }, 'insights publish failed');
        if (attempt >= ATTEMPTS) throw new EventsNotStoredError();
      }
    }
  }
}
