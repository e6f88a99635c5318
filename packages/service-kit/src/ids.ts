import { customAlphabet } from 'nanoid';

/** Letters and digits: URL-safe without encoding (the official client puts ids in paths as they are). */
export const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new resource id, alike in every service. */
export const newId = customAlphabet(ID_ALPHABET, 20);
