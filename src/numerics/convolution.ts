/**
 * Linear convolution of a real sequence with a fixed real kernel by FFT (fft.js, radix-4): the kernel is
 * zero-padded and transformed once, each call costs one real forward and one complex inverse transform.
 * Used by the LWL(d) Picard iteration and the response-time ccdf (theory.md §4 "Numerics" item 1).
 */
import FFT from 'fft.js';

/** Smallest power of two ≥ max(n, 4). */
export function nextPowerOfTwo(n: number): number {
  let size = 4;
  while (size < n) size *= 2;
  return size;
}

/**
 * Convolver for sequences of length ≤ `length` against a kernel K (length ≤ `length`): out[j] = Σ_{i≤j} x[i]·K[j−i]
 * for j < length (the linear convolution, truncated to its first `length` terms; the FFT size is ≥ 2·length, so
 * there is no wrap-around). Absolute round-off is about 1e−16·log₂(size)·Σ|x|·max|K|.
 */
export class KernelConvolver {
  readonly length: number;
  readonly size: number;
  private readonly fft: FFT;
  private readonly kernelSpectrum: Float64Array;
  private readonly input: Float64Array;
  private readonly spectrum: Float64Array;
  private readonly output: Float64Array;

  /** @param kernel K[0..], read up to `length` terms. @param length the longest sequence to convolve. */
  constructor(kernel: ArrayLike<number>, length: number) {
    this.length = length;
    this.size = nextPowerOfTwo(2 * length);
    this.fft = new FFT(this.size);
    this.input = new Float64Array(this.size);
    this.spectrum = new Float64Array(2 * this.size);
    this.output = new Float64Array(2 * this.size);
    this.kernelSpectrum = new Float64Array(2 * this.size);
    const n = Math.min(kernel.length, length);
    for (let i = 0; i < n; i++) this.input[i] = kernel[i];
    this.fft.realTransform(this.kernelSpectrum, this.input);
    this.fft.completeSpectrum(this.kernelSpectrum);
  }

  /**
   * @param x input, x.length ≤ length (missing terms are zero).
   * @param out receives the first `length` terms of x ∗ K (out.length ≥ length); returned.
   */
  convolve(x: ArrayLike<number>, out: Float64Array): Float64Array {
    const { size, input, spectrum, output, kernelSpectrum } = this;
    const n = Math.min(x.length, this.length);
    for (let i = 0; i < n; i++) input[i] = x[i];
    input.fill(0, n);
    this.fft.realTransform(spectrum, input);
    // realTransform fills the non-negative frequencies 0..size/2; multiply those, then mirror (Hermitian product).
    const half = size >>> 1;
    for (let k = 0; k <= half; k++) {
      const re = spectrum[2 * k],
        im = spectrum[2 * k + 1];
      const kr = kernelSpectrum[2 * k],
        ki = kernelSpectrum[2 * k + 1];
      spectrum[2 * k] = re * kr - im * ki;
      spectrum[2 * k + 1] = re * ki + im * kr;
    }
    for (let k = 1; k < half; k++) {
      spectrum[2 * (size - k)] = spectrum[2 * k];
      spectrum[2 * (size - k) + 1] = -spectrum[2 * k + 1];
    }
    this.fft.inverseTransform(output, spectrum);
    for (let j = 0; j < this.length; j++) out[j] = output[2 * j];
    return out;
  }
}
