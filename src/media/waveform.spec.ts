import { drawWaveform, PeakAccumulator, waveformJson } from './waveform';

/** Min/max of `points` equal slices, the slow obvious way. */
function bruteForce(samples: Int16Array, points: number, blockSize: number): { min: number[]; max: number[] } {
  const blocks = Math.ceil(samples.length / blockSize);
  const min: number[] = [];
  const max: number[] = [];
  for (let p = 0; p < points; p++) {
    const start = Math.min(blocks - 1, Math.floor((p * blocks) / points));
    const end = Math.max(start + 1, Math.floor(((p + 1) * blocks) / points));
    const slice = samples.subarray(start * blockSize, Math.min(samples.length, end * blockSize));
    min.push(Math.min(...slice));
    max.push(Math.max(...slice));
  }
  return { min, max };
}

function randomSamples(n: number): Int16Array {
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round((Math.random() * 2 - 1) * 32767);
  return out;
}

describe('PeakAccumulator', () => {
  it('gives exactly the min/max of each slice while its memory stays at `cap` blocks (merging as it goes)', () => {
    const samples = randomSamples(10_000);
    const acc = new PeakAccumulator(64);
    // In uneven chunks, as a pipe delivers them.
    for (let i = 0; i < samples.length; i += 333) acc.push(samples.subarray(i, i + 333));
    expect(acc.samples).toBe(10_000);
    // 10 000 samples into 64 blocks: merged until blocks of 256 (40 blocks), the last one partial.
    const peaks = acc.finish(20);
    const expected = bruteForce(samples, 20, 256);
    expect([...peaks.min]).toEqual(expected.min);
    expect([...peaks.max]).toEqual(expected.max);
  });

  it('spreads fewer samples than points by repeating them, and refuses no samples at all', () => {
    const acc = new PeakAccumulator();
    acc.push(Int16Array.from([-5, 7, 1]));
    const peaks = acc.finish(6);
    expect([...peaks.min]).toEqual([-5, -5, 7, 7, 1, 1]);
    expect([...peaks.max]).toEqual([-5, -5, 7, 7, 1, 1]);
    expect(() => new PeakAccumulator().finish(10)).toThrow(expect.objectContaining({ code: 'unsupported_input' }));
  });
});

describe('waveformJson', () => {
  const peaks = { min: Int16Array.from([-32768, -256, 0]), max: Int16Array.from([32767, 255, 0]) };

  it('is BBC audiowaveform version 2: length points, a min/max pair each, in the range of its bits', () => {
    expect(waveformJson(peaks, 44_100, 3000, 8)).toEqual({
      version: 2,
      channels: 1,
      sample_rate: 44_100,
      samples_per_pixel: 1000,
      bits: 8,
      length: 3,
      data: [-128, 127, -1, 0, 0, 0],
    });
    expect(waveformJson(peaks, 8000, 2, 16).data).toEqual([-32768, 32767, -256, 255, 0, 0]);
    expect(waveformJson(peaks, 8000, 2, 16).samples_per_pixel).toBe(1);
  });
});

describe('drawWaveform', () => {
  it('draws one column per point, from max down to min around the middle, in the colour, on transparent', () => {
    const raster = drawWaveform({ min: Int16Array.from([0, -32768]), max: Int16Array.from([0, 32767]) }, 11, '#ff8000');
    const pixel = (x: number, y: number) => [...raster.subarray((y * 2 + x) * 4, (y * 2 + x) * 4 + 4)];
    expect(pixel(0, 5)).toEqual([255, 128, 0, 255]); // silence: the middle line
    expect(pixel(0, 0)).toEqual([0, 0, 0, 0]);
    expect(pixel(1, 0)).toEqual([255, 128, 0, 255]); // full scale: top to bottom
    expect(pixel(1, 10)).toEqual([255, 128, 0, 255]);
  });
});
