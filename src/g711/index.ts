/** G.711 µ-law and A-law: the telephone audio both speech (tts/) and RTP (sip/rtp/) speak. */
export * from './g711';
