import * as z from 'zod';

/** A number or extension on the PBX: digits, `*`, `#`, a leading `+`. */
const DIALLABLE = /^\+?[0-9*#]{1,32}$/;

/** A number or extension to dial, or empty for none (self_test.number, voice_desk.number). */
export const diallableOrEmpty = z.string().refine((v) => v === '' || DIALLABLE.test(v), 'a number or extension: digits, * and #, a leading + allowed').default('');
