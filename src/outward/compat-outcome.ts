import type { ErrorCode } from '../errors';

/**
 * What the compatible APIs' answers need of an intake outcome (intake/compat-intake.ts
 * CompatOutcome, which fits it): processed, or refused with a catalogue code. Written here so
 * that outward/ does not import the intake, which imports outward/.
 */
export type CompatAnswerOutcome = { ok: true } | { ok: false; code: ErrorCode; value?: string };

/** What a compatible request asked (intake/compat-intake.ts CompatAction's kinds). */
export type CompatActionKind = 'trigger' | 'resolve' | 'acknowledge' | 'ignore';
