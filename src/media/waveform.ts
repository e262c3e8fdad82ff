import { MediaError } from './media.errors';

/**
 * Pure waveform maths (no I/O): streaming min/max peaks of 16-bit mono PCM, the BBC audiowaveform
 * JSON shape, and the drawing of peaks into an RGBA raster.
 */

/** Peak blocks kept before neighbours merge (at least): memory stays bounded whatever the duration. */
export const PEAK_BLOCKS = 1 << 16;

/**
 * Min/max over blocks of `blockSize` samples. When the block count reaches `cap`, neighbouring
 * blocks merge and the block size doubles, so an hour of audio needs as little memory as a second,
 * and `finish` can spread the peaks over any number of points without knowing the length in advance.
 */
export class PeakAccumulator {
  private min: Int16Array;
  private max: Int16Array;
  private blocks = 0;
  private blockSize = 1;
  private inBlock = 0;
  private curMin = 32767;
  private curMax = -32768;
  /** Every sample pushed. */
  samples = 0;

  constructor(private readonly cap = PEAK_BLOCKS) {
    if (cap < 2 || cap % 2) throw new Error('cap must be even');
    this.min = new Int16Array(cap);
    this.max = new Int16Array(cap);
  }

  /** Samples of s16le PCM. */
  push(samples: Int16Array): void {
    // Block by block, the running min/max in locals: this loop sees every sample of the decode.
    const n = samples.length;
    let i = 0;
    while (i < n) {
      const end = Math.min(n, i + this.blockSize - this.inBlock);
      let lo = this.curMin;
      let hi = this.curMax;
      for (let j = i; j < end; j++) {
        const v = samples[j];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      this.curMin = lo;
      this.curMax = hi;
      this.inBlock += end - i;
      i = end;
      if (this.inBlock === this.blockSize) this.closeBlock();
    }
    this.samples += n;
  }

  /** Exactly `points` min/max pairs covering every sample (a sample repeats when there are fewer samples than points). */
  finish(points: number): { min: Int16Array; max: Int16Array } {
    if (this.inBlock > 0) this.closeBlock();
    const n = this.blocks;
    if (n === 0) throw new MediaError('unsupported_input', 'The file has no audio samples.');
    const min = new Int16Array(points);
    const max = new Int16Array(points);
    for (let p = 0; p < points; p++) {
      const start = Math.min(n - 1, Math.floor((p * n) / points));
      const end = Math.max(start + 1, Math.floor(((p + 1) * n) / points));
      let lo = 32767;
      let hi = -32768;
      for (let b = start; b < end; b++) {
        if (this.min[b] < lo) lo = this.min[b];
        if (this.max[b] > hi) hi = this.max[b];
      }
      min[p] = lo;
      max[p] = hi;
    }
    return { min, max };
  }

  private closeBlock(): void {
    this.min[this.blocks] = this.curMin;
    this.max[this.blocks] = this.curMax;
    this.inBlock = 0;
    this.curMin = 32767;
    this.curMax = -32768;
    // Merging right when full keeps every block the same number of samples (cap is even).
    if (++this.blocks === this.cap) this.halve();
  }

  private halve(): void {
    const half = this.blocks >> 1;
    for (let i = 0; i < half; i++) {
      this.min[i] = Math.min(this.min[2 * i], this.min[2 * i + 1]);
      this.max[i] = Math.max(this.max[2 * i], this.max[2 * i + 1]);
    }
    this.blocks = half;
    this.blockSize *= 2;
  }
}

/** BBC audiowaveform's JSON (format version 2), one channel. */
export interface WaveformJson {
  version: 2;
  channels: 1;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8 | 16;
  length: number;
  data: number[];
}

export function waveformJson(peaks: { min: Int16Array; max: Int16Array }, sampleRate: number, samples: number, bits: 8 | 16): WaveformJson {
  const points = peaks.min.length;
  const data = new Array<number>(points * 2);
  // 8 bits: the top byte of each 16-bit value, as audiowaveform scales them.
  const shift = bits === 8 ? 8 : 0;
  for (let p = 0; p < points; p++) {
    data[2 * p] = peaks.min[p] >> shift;
    data[2 * p + 1] = peaks.max[p] >> shift;
  }
  return { version: 2, channels: 1, sample_rate: sampleRate, samples_per_pixel: Math.max(1, Math.round(samples / points)), bits, length: points, data };
}

/** One column per point, from max down to min around the middle line, in `color` on transparent: an RGBA raster for sharp. */
export function drawWaveform(peaks: { min: Int16Array; max: Int16Array }, height: number, color: string): Buffer {
  const width = peaks.min.length;
  const rgb = parseColor(color);
  const raster = Buffer.alloc(width * height * 4);
  const mid = (height - 1) / 2;
  for (let x = 0; x < width; x++) {
    const top = Math.max(0, Math.floor(mid - (peaks.max[x] / 32768) * mid));
    const bottom = Math.min(height - 1, Math.max(top, Math.ceil(mid - (peaks.min[x] / 32768) * mid)));
    for (let y = top; y <= bottom; y++) {
      const i = (y * width + x) * 4;
      raster[i] = rgb[0];
      raster[i + 1] = rgb[1];
      raster[i + 2] = rgb[2];
      raster[i + 3] = 255;
    }
  }
  return raster;
}

function parseColor(color: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) throw new MediaError('processing_failed', `color must be #rrggbb, got '${color}'.`);
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}
