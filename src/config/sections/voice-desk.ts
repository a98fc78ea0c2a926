import * as z from 'zod';
import { diallableOrEmpty } from './diallable';

/**
 * docs/telephony.md "Voice desk": engineers call the appliance on an internal extension to hear,
 * acknowledge and resolve their account's alerts. Off by default: with it off every INVITE
 * to the appliance is refused as before (603).
 */
export const voiceDeskSection = z
  .object({
    /** Answer INVITEs from the trunks' addresses (or through their registration). */
    enabled: z.boolean().default(false),
    /**
     * The number callers dial to reach the desk (the PBX's extension or DID routed here). Set,
     * a message left on a voicemail names it in its last sentence (docs/telephony.md
     * "Voicemail detection"); empty: it does not. The appliance cannot learn it: the PBX routes.
     */
    number: diallableOrEmpty,
    /** Wrong PINs in one call before it is ended. */
    pin_tries: z.number().int().min(1).max(10).default(3),
    /** More wrong PINs than this within `lockout_window_s` from one trunk lock the desk there. */
    lockout_threshold: z.number().int().min(1).max(1000).default(10),
    lockout_window_s: z.number().int().min(1).max(3600).default(60),
    /** How long a locked desk refuses calls from that trunk. */
    lockout_s: z.number().int().min(1).max(86_400).default(300),
    /** Silence after the last prompt before the call ends when nobody presses anything. */
    idle_timeout_s: z.number().int().min(5).max(600).default(30),
    /** Longest a desk call may last; then it is ended. */
    max_call_s: z.number().int().min(30).max(3600).default(600),
    /** How long keypad 0's transfer waits for the PBX's final NOTIFY (RFC 3515 §2.4.5) before it counts as failed. */
    transfer_wait_s: z.number().int().min(2).max(300).default(32),
  })
  .strict();

export type VoiceDeskConfig = z.infer<typeof voiceDeskSection>;
