import { describe, expect, it } from 'vitest';
import { encodeRtp } from './packet';
import { aesCmKeystream, createSrtpReceiver, createSrtpSender, deriveSessionKeys, SRTP_TAG_BYTES } from './srtp';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

// RFC 3711 Appendix B.3 (and libsrtp's srtp_validate key).
const MASTER = hex('E1F97A0D3E018BE0D64FA32C06DE4139 0EC675AD498AFEEBB6960B3AABE6');

describe('SRTP AES_CM_128_HMAC_SHA1_80 (RFC 3711)', () => {
  it('derives the session keys of Appendix B.3', () => {
    const k = deriveSessionKeys(MASTER);
    expect(k.cipherKey.toString('hex')).toBe('c61e7a93744f39ee10734afe3ff7a087');
    expect(k.cipherSalt.toString('hex')).toBe('30cbbc08863d8c85d49db34a9ae1');
    expect(k.authKey.toString('hex')).toBe('cebe321f6ff7716b6fd4ab49af256a156d38baa4');
  });

  it('produces the AES-CM keystream of Appendix B.2, first and last blocks', () => {
    const key = hex('2B7E151628AED2A6ABF7158809CF4F3C');
    const iv = hex('F0F1F2F3F4F5F6F7F8F9FAFBFCFD0000');
    const ks = aesCmKeystream(key, iv, 65282 * 16);
    expect(ks.subarray(0, 48).toString('hex').toUpperCase()).toBe('E03EAD0935C95E80E166B16DD92B4EB4D23513162B02D0F72A43A2FE4A5F97AB41E95B3BB0A2E8DD477901E4FCA894C0');
    expect(ks.subarray(0xfeff * 16, 0xff02 * 16).toString('hex').toUpperCase()).toBe(
      'EC8CDF7398607CB0F2D21675EA9EA1E4362B7C3C6773516318A077D7FC5073AE6A2CC3787889374FBEB4C81B17BA6C44',
    );
  });

  it("protects libsrtp's reference packet byte for byte (srtp_validate: SSRC cafebabe, SEQ 1234, ROC 0)", () => {
    const plain = hex('800f1234decafbadcafebabe' + 'ab'.repeat(16));
    const ref = hex('800f1234decafbadcafebabe4e55dc4ce79978d88ca4d215949d2402b78d6acc99ea179b8dbb');
    expect(createSrtpSender(MASTER).protect(plain).toString('hex')).toBe(ref.toString('hex'));
    expect(createSrtpReceiver(MASTER).unprotect(ref)).toEqual(plain);
  });

  it('round-trips a stream of G.711 frames across a sequence wrap (rollover counter)', () => {
    const tx = createSrtpSender(MASTER);
    const rx = createSrtpReceiver(MASTER);
    let seq = 0xfff0;
    for (let n = 0; n < 40; n++) {
      const payload = new Uint8Array(160).map((_, i) => (i * 7 + n) & 0xff);
      const rtp = encodeRtp({ payloadType: 0, marker: n === 0, sequence: seq, timestamp: n * 160, ssrc: 0x11223344 }, payload);
      const srtp = tx.protect(rtp);
      expect(srtp.length).toBe(rtp.length + SRTP_TAG_BYTES);
      expect(Buffer.from(srtp.subarray(12, 172)).equals(Buffer.from(payload))).toBe(false);
      expect(rx.unprotect(srtp)).toEqual(rtp);
      seq = (seq + 1) & 0xffff;
    }
  });

  it('after the wrap, the keystream uses ROC 1 (a receiver that missed the wrap cannot read it)', () => {
    const tx = createSrtpSender(MASTER);
    const rtpAt = (seq: number) => encodeRtp({ payloadType: 0, marker: false, sequence: seq, timestamp: 0, ssrc: 5 }, new Uint8Array(160));
    tx.protect(rtpAt(0xffff));
    const wrapped = tx.protect(rtpAt(0));
    // A fresh receiver assumes ROC 0 for its first packet: the tag (which covers the ROC) fails.
    expect(createSrtpReceiver(MASTER).unprotect(wrapped)).toBe('auth');
  });

  it('refuses a tampered packet, a wrong key and a replay', () => {
    const tx = createSrtpSender(MASTER);
    const rx = createSrtpReceiver(MASTER);
    const rtp = encodeRtp({ payloadType: 0, marker: false, sequence: 100, timestamp: 0, ssrc: 9 }, new Uint8Array(160).fill(0xff));
    const srtp = tx.protect(rtp);
    const tampered = Buffer.from(srtp);
    tampered[40]! ^= 1;
    expect(rx.unprotect(tampered)).toBe('auth');
    const otherKey = Buffer.from(MASTER);
    otherKey[0]! ^= 0x80;
    expect(createSrtpReceiver(otherKey).unprotect(srtp)).toBe('auth');
    expect(rx.unprotect(srtp)).toEqual(rtp);
    expect(rx.unprotect(srtp)).toBe('replay');
  });

  it('accepts reordered packets inside the replay window and refuses those behind it', () => {
    const tx = createSrtpSender(MASTER);
    const rx = createSrtpReceiver(MASTER);
    const packets = Array.from({ length: 100 }, (_, i) =>
      tx.protect(encodeRtp({ payloadType: 0, marker: false, sequence: 1000 + i, timestamp: i * 160, ssrc: 3 }, new Uint8Array(160))),
    );
    expect(rx.unprotect(packets[0]!)).toBeInstanceOf(Buffer);
    expect(rx.unprotect(packets[90]!)).toBeInstanceOf(Buffer);
    expect(rx.unprotect(packets[60]!)).toBeInstanceOf(Buffer); // 30 behind: late, not replayed
    expect(rx.unprotect(packets[60]!)).toBe('replay');
    expect(rx.unprotect(packets[10]!)).toBe('replay'); // 80 behind: outside the window
    expect(rx.unprotect(packets[91]!)).toBeInstanceOf(Buffer);
  });

  it('refuses what is not SRTP', () => {
    expect(createSrtpReceiver(MASTER).unprotect(new Uint8Array(8))).toBe('malformed');
    expect(() => deriveSessionKeys(new Uint8Array(16))).toThrow(/30 bytes/);
  });
});
