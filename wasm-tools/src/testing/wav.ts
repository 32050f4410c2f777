/**
 * WAV files written byte by byte for tests and benchmarks (no package writes one): 16-bit PCM,
 * the RIFF header written here once, the samples from the caller.
 */

/** Frames, rate and channels of a PCM WAV, and the 16-bit value of each sample. */
export interface PcmSpec {
  frames: number;
  rate: number;
  channels?: number;
  /** The sample of `channel` in `frame`, a whole number in -32768..32767; called frame by frame, channel by channel. */
  sample: (frame: number, channel: number) => number;
}

/** A 16-bit PCM WAV of `frames` frames of `channels` interleaved samples. */
export function pcmWav({ frames, rate, channels = 1, sample }: PcmSpec): Uint8Array<ArrayBuffer> {
  const dataBytes = frames * channels * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => (bytes[at + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * 2, true); // byte rate
  view.setUint16(32, channels * 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) view.setInt16(44 + (f * channels + c) * 2, sample(f, c), true);
  }
  return bytes;
}

/** A sine tone as a 16-bit PCM WAV, the same on every channel: `seconds` long (`frames` instead, when given). */
export function toneWav({ seconds = 1, frames, rate = 44_100, channels = 1, frequency = 440, amplitude = 16_383.5 }: { seconds?: number; frames?: number; rate?: number; channels?: number; frequency?: number; amplitude?: number }): Uint8Array<ArrayBuffer> {
  return pcmWav({
    frames: frames ?? Math.round(seconds * rate),
    rate,
    channels,
    sample: (f) => Math.round(Math.sin((2 * Math.PI * frequency * f) / rate) * amplitude),
  });
}
