import type { ContentServiceClient } from '@quire/proto/content';
import type { PromiseClient } from '@quire/service-kit';
import type { EventSink } from '@quire/service-kit/nats';
import type { SealingKeys } from '@quire/service-kit/sealed';
import type { JobMessage } from '../worker/jobs.ts';
import type { Store } from '../store/index.ts';

export interface Deps {
  store: Store;
  content: PromiseClient<ContentServiceClient>;
  /** Stores the job message on the JOBS stream; resolves once JetStream acknowledged it. */
  publish: (msg: JobMessage) => Promise<void>;
  /** Exports and imports started, for the audit log. */
  events: EventSink;
  /** Seals the credentials a job message carries. */
  secretsKey: SealingKeys;
  allowPrivateNetwork: boolean;
  /** `file:` repository URLs (QUIRE_ALLOW_FILE_REMOTES). */
  allowFileRemotes: boolean;
  newId: () => string;
  now?: () => Date;
}
