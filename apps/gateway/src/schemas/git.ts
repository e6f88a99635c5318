import { Type } from '@sinclair/typebox';
import { COMMON, GIT_SYNC } from '@quire/proto/limits';
import { chars, range, Timestamp } from './common.ts';

const Url = (description: string) => Type.String({ ...chars(COMMON.url), description });

const GitInfoBody = Type.Object(
  {
    provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')])),
    url: Type.Optional(Url("The repository's tree URL")),
  },
  { additionalProperties: false, description: 'Optional metadata to store on the space about the Git provider' },
);

/** What an import and an export take alike. */
const repository = {
  url: Url('URL of the Git repository; may hold basic-auth credentials, used for this operation only and never stored'),
  ref: Type.String({ ...chars(GIT_SYNC.ref), description: 'Git ref such as refs/heads/main' }),
  repoCacheID: Type.Optional(Type.String(chars(GIT_SYNC.repoCacheID))),
  repoTreeURL: Type.Optional(Url('Prefix for external file references')),
  repoCommitURL: Type.Optional(Url('Prefix for the commit URL')),
  repoProjectDirectory: Type.Optional(Type.String({ ...chars(GIT_SYNC.repoProjectDirectory), description: 'Root directory of the project in the repository' })),
  timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'Orders import and export operations: an older one never overwrites a newer one' })),
  force: Type.Optional(Type.Boolean({ description: 'Run even when a newer operation already ran' })),
  gitInfo: Type.Optional(GitInfoBody),
};

export const ImportBody = Type.Object(
  { ...repository, standalone: Type.Optional(Type.Boolean({ description: "A revision that leaves the space's primary content alone" })) },
  { additionalProperties: false },
);

export const ExportBody = Type.Object(
  { ...repository, commitMessage: Type.String({ ...chars(GIT_SYNC.commitMessage), description: 'Message of the commit the export makes' }) },
  { additionalProperties: false },
);

/** The Space's `gitSync` field. */
export const GitSyncState = Type.Object(
  {
    repoName: Type.String(),
    installationProvider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')])),
    integration: Type.String(),
    url: Type.String({ description: 'The repository tree URL, or the repository URL without credentials' }),
    updatedAt: Timestamp,
  },
  { title: 'GitSyncState' },
);

/** Quire's addition to the info: the space's latest import or export, how it went. */
export const GitJob = Type.Object(
  {
    id: Type.String(),
    direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
    state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
    error: Type.Optional(Type.String({ description: 'Why it failed' })),
    revision: Type.Optional(Type.String({ description: 'The revision an import made' })),
    commit: Type.Optional(Type.String({ description: 'The commit imported, or the one an export pushed' })),
    createdAt: Timestamp,
    startedAt: Type.Optional(Timestamp),
    completedAt: Type.Optional(Timestamp),
    filesDone: Type.Integer({ minimum: 0, description: 'Repository files (pages and assets) processed so far' }),
    filesTotal: Type.Integer({ minimum: 0, description: 'Files the job processes in all; 0 until it knows' }),
  },
  { title: 'GitJob' },
);

export const GitInfo = Type.Object({ ...GitSyncState.properties, job: Type.Optional(GitJob) }, { title: 'GitInfo' });

/** The source a push webhook imports from: an import's fields that name the repository and where the docs are. */
export const WebhookBody = Type.Object(
  {
    url: Url('URL of the Git repository; may hold basic-auth credentials, kept sealed for the imports pushes start'),
    ref: Type.String({ ...chars(GIT_SYNC.ref), description: 'The branch whose pushes import, such as refs/heads/main' }),
    repoTreeURL: repository.repoTreeURL,
    repoCommitURL: repository.repoCommitURL,
    repoProjectDirectory: repository.repoProjectDirectory,
    pollSeconds: Type.Optional(
      Type.Integer({
        ...range(GIT_SYNC.pollSeconds),
        description: 'Also look at the branch every this many seconds and import a new commit (for hosts that cannot reach Quire); off when absent',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Webhook = Type.Object(
  {
    url: Type.String({ description: 'Where the Git host sends push events (the payload URL)' }),
    secret: Type.String({ description: 'The secret to enter in the Git host: shown this once; setting the webhook again makes a new one' }),
    ref: Type.String({ description: 'The branch whose pushes import' }),
  },
  { title: 'GitWebhook' },
);

export const WebhookAnswer = Type.Object(
  {
    result: Type.Union([Type.Literal('queued'), Type.Literal('ignored')]),
    reason: Type.Optional(Type.String({ description: 'Why nothing was imported' })),
  },
  { title: 'GitWebhookAnswer' },
);

const results = ['queued', 'running', 'done', 'skipped', 'failed', 'ignored', 'rejected'] as const;

/** One line of a space's sync log. */
export const SyncLogEntry = Type.Object(
  {
    id: Type.String(),
    direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
    trigger: Type.Union([Type.Literal('api'), Type.Literal('webhook'), Type.Literal('poll'), Type.Literal('merge')], {
      description: "A member's call, a Git host's push, a new commit polling found, or a merged change request (exported as a commit authored by its merger)",
    }),
    user: Type.Optional(Type.String({ description: 'The member who called or merged, or the one the webhook acts for' })),
    changeRequest: Type.Optional(Type.String({ description: 'For a merge: the change request merged' })),
    provider: Type.Optional(Type.String({ description: 'The Git host that sent the webhook' })),
    deliveryId: Type.Optional(Type.String({ description: "The host's id of the webhook delivery" })),
    ref: Type.Optional(Type.String()),
    commit: Type.Optional(Type.String({ description: 'The commit imported or pushed, or the one a push named' })),
    result: Type.Union(results.map((r) => Type.Literal(r))),
    reason: Type.Optional(Type.String({ description: 'Why it failed, was skipped, ignored or rejected' })),
    pagesChanged: Type.Integer({ minimum: 0, description: 'Pages added, changed or removed' }),
    attempts: Type.Integer({ minimum: 0, description: 'Runs of the job: more than one when a transient failure was retried' }),
    job: Type.Optional(Type.String({ description: 'The import or export job (as `job.id` in git/info)' })),
    createdAt: Timestamp,
    startedAt: Type.Optional(Timestamp),
    completedAt: Type.Optional(Timestamp),
  },
  { title: 'GitSyncLogEntry' },
);
