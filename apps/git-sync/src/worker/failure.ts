/** A failure to tell the user as the job's reason (anything else is retried as transient). */
export class JobFailure extends Error {}
