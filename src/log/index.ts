import type pino from 'pino';
import { redactQueries } from './redact';

/**
 * What the appliance asks of a logger: pino's level methods, child and isLevelEnabled. pino
 * satisfies it (createLogger); so does silentLogger without loading pino.
 */
export interface Logger {
  readonly level: string;
  trace: pino.LogFn;
  debug: pino.LogFn;
  info: pino.LogFn;
  warn: pino.LogFn;
  error: pino.LogFn;
  fatal: pino.LogFn;
  child(bindings: pino.Bindings): Logger;
  isLevelEnabled(level: string): boolean;
}

/**
 * Structured JSON lines on stdout (journald keeps them). Secrets never go in a log
 * field: callers log ids and api keys, never secrets, webhook keys or bodies; and any URL
 * query in a line is redacted as it is written (redact.ts), whatever logged it.
 * `destination` is for tests.
 *
 * pino is required here, when a logger is made, not imported above: evaluating it (with
 * sonic-boom, thread-stream, worker_threads) cost a short CLI command ~25 ms of its ~0.18
 * CPU-seconds, and a command logs nothing (docs/development.md "The suite's length").
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const pino = require('pino') as typeof import('pino').default;
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: { streamWrite: redactQueries },
  };
  return destination ? pino(options, destination) : pino(options);
}

const nothing = () => {};

/** A logger that writes nothing: for tests and CLI commands that must keep stdout for their JSON answer. */
export function silentLogger(): Logger {
  const log: Logger = {
    level: 'silent',
    trace: nothing,
    debug: nothing,
    info: nothing,
    warn: nothing,
    error: nothing,
    fatal: nothing,
    child: () => log,
    isLevelEnabled: () => false,
  };
  return log;
}
export { describeError } from './describe-error';
