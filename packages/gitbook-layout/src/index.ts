// GitBook's repository layout (SUMMARY.md, .gitbook.yaml, page files and assets) read into a
// space's pages and files and written back, without talking to git: Git Sync and ZIP imports and
// exports share it.
export { knownIds, planExport, type ExportOptions, type ExportPlan, type SpaceFile, type SpacePage, type SpaceReusableContent } from './exporter.ts';
export {
  planImport,
  plannedContent,
  readConfig,
  type DocsConfig,
  RepositoryError,
  type IgnoredInclude,
  type ImportOptions,
  type ImportPlan,
  type PlannedContent,
  type PlannedReusableContent,
  type PlannedFile,
  type PlannedPage,
  type PlannedRedirect,
  type RepoSnapshot,
} from './importer.ts';
export { isInside, isMarkdown, isWritablePath, joinPath } from './paths.ts';
export { gitBlobOid, isLayoutText, snapshotOfFiles } from './snapshot.ts';
export { FRONT_MATTER, readFrontMatter, setFrontMatter, type FrontMatterBlock } from './front-matter.ts';
export { pageLook, type ImageRef, type LookProblem, type PageCover, type PageLayout, type PageLook } from './page-look.ts';
