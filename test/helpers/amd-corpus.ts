import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createAmdDetector, type AmdTimings, type AmdUpdate, type AmdVerdict } from '../../src/amd';
import { decodeUlaw } from '../../src/g711';
import type { CorpusClip } from '../../scripts/lib/amd-corpus';
import { ROOT } from './paths';

export type { CorpusClip };
const DIR = join(ROOT, 'test/fixtures/amd');

/** The voicemail-detection corpus (scripts/amd-corpus): each clip's facts and its µ-law bytes. */
export function loadCorpus(): { clip: CorpusClip; ulaw: Uint8Array }[] {
  const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { clips: CorpusClip[] };
  return manifest.clips.map((clip) => ({ clip, ulaw: new Uint8Array(gunzipSync(readFileSync(join(DIR, `${clip.id}.ul.gz`)))) }));
}

export interface Replay {
  verdict: AmdVerdict | null;
  /** When a machine's mailbox records (the message would start), ms after the answer. */
  recordingAtMs: number | null;
}

/**
 * A clip as the RTP worker hears it (sip/rtp/stream.ts): 160-byte µ-law packets, each
 * decoded and fed to the detector, from the answer on; after the clip, silence to the end of
 * the mailbox wait (the far end sends comfort silence until the call ends).
 */
export function replay(ulaw: Uint8Array, timings: AmdTimings): Replay {
  const d = createAmdDetector(timings);
  let verdict: AmdVerdict | null = null;
  let recordingAtMs: number | null = null;
  const take = (us: AmdUpdate[]) => {
    for (const u of us) {
      if (u.kind === 'decided') verdict = u.verdict;
      else recordingAtMs = u.atMs;
    }
  };
  const silent = new Uint8Array(160).fill(0xff);
  for (let at = 0; !d.done && at < 25 * 8000; at += 160) {
    take(d.push(decodeUlaw(at < ulaw.length ? ulaw.subarray(at, at + 160) : silent)));
  }
  return { verdict, recordingAtMs };
}
