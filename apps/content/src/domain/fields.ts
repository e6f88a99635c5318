import { COMMON, SPACE } from '@quire/proto/limits';
import { checkLength, checkOneOf, InvalidArgumentError } from '@quire/service-kit';
import { Role } from '@quire/policy';
import { roleToLevel, type Level } from './access.ts';

// Bounds and enumerations of the reference (collection title 50, description 100; space title 50,
// emoji 50), checked here too: the gateway is not the only caller.

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const EDIT_MODES = ['live', 'locked'] as const;
export type EditMode = (typeof EDIT_MODES)[number];

export const DEFAULT_TITLE = 'Untitled';
const COPY_SUFFIX = ' (copy)';

/** A title given: never empty once set. */
export const checkTitle = (value: string) => checkLength('title', value, { min: 1, max: SPACE.title.max });
export const checkDescription = (value: string) => checkLength('description', value, SPACE.description);

// One emoji (with its modifiers and joiners), or its code points in hex as GitBook also stores them.
const EMOJI = /^(?:[\p{Extended_Pictographic}\p{Emoji_Presentation}\p{Emoji_Modifier}\p{Regional_Indicator}\u200d\ufe0f\u20e3#*0-9]+|[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*)$/u;

/** An emoji, or empty for none. */
export function checkEmoji(value: string): string {
  checkLength('emoji', value, COMMON.emoji);
  if (value !== '' && !EMOJI.test(value)) throw new InvalidArgumentError('emoji: must be an emoji character or its hex code points');
  return value;
}

export function checkDefaultLevel(role: Role): Level {
  const level = roleToLevel(role);
  if (!level) throw new InvalidArgumentError('defaultLevel: must be a role, null or inherit');
  return level;
}

/** `in-collection` only makes sense for a space in a collection. */
export function checkVisibility(value: string, parentId: string | null): Visibility {
  const visibility = checkOneOf('visibility', value, VISIBILITIES);
  if (visibility === 'in-collection' && parentId === null) throw new InvalidArgumentError('visibility: in-collection is only for spaces in a collection');
  return visibility;
}

/** A space leaving every collection cannot stay `in-collection`: it becomes private, the safe side. */
export function visibilityAtRoot(visibility: Visibility): Visibility {
  return visibility === 'in-collection' ? 'private' : visibility;
}

/** The duplicate's title: "<title> (copy)", the title shortened to keep within the bound. */
export function copyTitle(title: string): string {
  return [...title].slice(0, SPACE.title.max - COPY_SUFFIX.length).join('') + COPY_SUFFIX;
}
