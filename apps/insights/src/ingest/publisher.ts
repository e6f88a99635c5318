import { randomUUID } from 'node:crypto';
import { DomainError, GrpcStatus, type Logger } from '@quire/service-kit';
import type { JetStreamClient } from 'nats';
import { ROW_COLUMNS, type EventRow } from '../domain/events.ts';

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
 */
export function toMessages(rows: EventRow[], batchId: string, maxBytes: number): { id: string; body: Buffer }[] {
  const messages: { id: string; body: Buffer }[] = [];
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (lines.length === 0) return;
    messages.push({ id: `${batchId}.${messages.length}`, body: Buffer.from(lines.join('')) });
    lines = [];
    size = 0;
  };
  for (const row of rows) {
    // `["<id>",` + the row's values: the id can change at a flush without serializing again.
    const values = JSON.stringify(ROW_COLUMNS.map((c) => row[c])).slice(1);
    let line = `["${batchId}.${messages.length}",${values}\n`;
    let bytes = Buffer.byteLength(line);
    if (size + bytes > maxBytes && lines.length > 0) {
      flush();
      line = `["${batchId}.${messages.length}",${values}\n`;
      bytes = Buffer.byteLength(line);
    }
    lines.push(line);
    size += bytes;
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
