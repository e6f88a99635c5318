import { Type } from '@sinclair/typebox';
import { COMMON, GIT_SYNC } from '@quire/proto/limits';
import { chars, Timestamp } from './common.ts';

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
