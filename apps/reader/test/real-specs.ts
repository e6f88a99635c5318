import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Public specs the tests read from their npm packages (none of their text is kept here):
// ReadMe's examples (Swagger 2.0, OpenAPI 3.0 and 3.1) and GitHub's REST API description, 13 MB
// of JSON whose schemas reach each other through many levels of `$ref`.

const require = createRequire(import.meta.url);
const examples = dirname(require.resolve('@readme/oas-examples/package.json'));
const octokit = dirname(require.resolve('@octokit/openapi/package.json'));

/** Every JSON example of @readme/oas-examples, as `2.0/petstore.json`. */
export const readmeExamples = (): string[] =>
  ['2.0', '3.0', '3.1'].flatMap((v) =>
    readdirSync(join(examples, v, 'json'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => `${v}/${f}`),
  );

/** The text of one of @readme/oas-examples (`2.0/petstore.json`, `3.1/yaml/...` given as `3.1/petstore.yaml`). */
export const readmeExample = (name: string): string => {
  const [version, file] = name.split('/') as [string, string];
  return readFileSync(join(examples, version, file.endsWith('.yaml') ? 'yaml' : 'json', file), 'utf8');
};

/** GitHub's REST API (api.github.com), with its `$ref`s as published. */
export const githubSpec = (): string => readFileSync(join(octokit, 'generated', 'api.github.com.json'), 'utf8');
