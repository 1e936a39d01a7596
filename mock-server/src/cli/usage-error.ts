/** A usage error of a CLI command: exit code 2, the message on standard error. */
export class UsageError extends Error {}
