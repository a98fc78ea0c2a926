import pino from 'pino';
import { redactQueries } from './redact';

export type Logger = pino.Logger;

/**
 * Structured JSON lines on stdout (journald keeps them). Secrets never go in a log
 * field: callers log ids and api keys, never secrets, webhook keys or bodies; and any URL
 * query in a line is redacted as it is written (redact.ts), whatever logged it.
 * `destination` is for tests.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: { streamWrite: redactQueries },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** For tests and CLI commands that must keep stdout for their JSON answer. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
export { describeError } from './describe-error';
