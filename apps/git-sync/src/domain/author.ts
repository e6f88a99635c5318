/** A commit's author: who merged the change request it carries. */
export interface Person {
  name: string;
  email: string;
}

/**
 * `Name <email>` as a commit's author header takes it. A member's name is theirs to write: angle
 * brackets and line breaks, which would end the header and start others (a forged committer, a
 * message of the member's choosing), are taken out; an empty name is their email.
 */
export const identity = (p: Person) => `${p.name.replace(/[<>\r\n]/g, '').trim() || p.email} <${p.email.replace(/[<>\s]/g, '')}>`;
