import { Type, type Static } from '@sinclair/typebox';
import { SPACE } from '@quire/proto/limits';
import { chars, ListQuery } from './common.ts';

const AppUrl = (description: string) => Type.Object({ app: Type.String({ format: 'uri', description }) });

export const SearchQuery = Type.Object({
  query: Type.String({ ...chars(SPACE.searchQuery), description: 'Words, "phrases", -excluded words, or' }),
  ...ListQuery,
});

export const SearchSectionResult = Type.Object(
  {
    id: Type.String({ description: "The heading's anchor; empty for the text before the first heading" }),
    title: Type.String(),
    path: Type.String({ description: "The page's path" }),
    body: Type.String({ description: 'The section text around the matches' }),
    urls: AppUrl('The section in the app'),
  },
  { title: 'SearchSectionResult' },
);

export const SearchPageResult = Type.Object(
  { id: Type.String(), title: Type.String(), path: Type.String(), sections: Type.Array(SearchSectionResult), urls: AppUrl('The page in the app') },
  { title: 'SearchPageResult' },
);

export const SearchSpaceResult = Type.Object({ id: Type.String(), title: Type.String(), pages: Type.Array(SearchPageResult) }, { title: 'SearchSpaceResult' });

export type SearchPageJson = Static<typeof SearchPageResult>;
export type SearchSpaceJson = Static<typeof SearchSpaceResult>;
