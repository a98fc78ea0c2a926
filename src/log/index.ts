import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Structured JSON lines on stdout (journald keeps them). Secrets never go in a log
 * field: callers log ids and api keys, never secrets, webhook keys or bodies.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}

/** For tests and CLI commands that must keep stdout for their JSON answer. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
