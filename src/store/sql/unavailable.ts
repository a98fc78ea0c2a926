/**
 * The database did not answer within `store.timeout_ms`, or cannot be reached: the HTTP
 * edge answers `503 Database unavailable` (docs/high-availability.md), a monitoring tool
 * retries, and nothing was promised. Whatever else the appliance does goes on.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  constructor(readonly why: string) {
    super(`database unavailable: ${why}`);
  }
}
