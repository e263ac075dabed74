/**
 * Heterogeneous servers (theory.md §13): server classes c = 1..C with fractions f_c (Σ f_c = 1) and speeds μ_c > 0;
 * a job of size S takes S/μ_c at a class-c server. The d sampled servers are drawn uniformly over the servers
 * (`sampling` 'uniform': class c with probability p_c = f_c) or speed-weighted ('speed': p_c = f_c μ_c / Σ f μ),
 * each draw uniform within its class. Load ρ = λE[S] / Σ f_c μ_c.
 * Stability per class: a rule that compares queues sends a job into a set A of classes at least when all d sampled
 * servers are in A, so A needs λE[S]·(Σ_{c∈A} p_c)^d < Σ_{c∈A} f_c μ_c (d = 1 for random selection); A = all classes
 * is ρ < 1. Source: Mukhopadhyay & Mazumdar, IEEE TCNS 2015 (arXiv 1311.5806); Gardner et al., "Scalable load
 * balancing in the presence of heterogeneous servers", Perf. Eval. 2021.
 */
import { onFirstTouch, z } from '../lazy.ts';
import { InvalidModelError, UnstableModelError } from '../errors.ts';

/** How the d servers of an arrival are drawn over the classes: uniformly over servers, or in proportion to speed. */
export const SERVER_SAMPLINGS = ['uniform', 'speed'] as const;
export type ServerSampling = (typeof SERVER_SAMPLINGS)[number];

/** Server classes: speeds μ_c and fractions f_c (same length C ≥ 1), and how arrivals sample them. */
export interface ServerClasses {
  readonly speeds: readonly number[];
  readonly fractions: readonly number[];
  readonly sampling: ServerSampling;
}

/** Tolerance on Σ f_c = 1. */
export const FRACTION_SUM_TOLERANCE = 1e-9;
/** Most classes a model may have (the per-class stability check visits every subset). */
export const MAX_SERVER_CLASSES = 16;

const numberList = (field: string) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((x) => x.trim())
            .map((x) => (x !== '' && Number.isFinite(Number(x)) ? Number(x) : x))
        : v,
    z.array(z.number({ error: (iss) => `${field} must be numbers, got ${JSON.stringify(iss.input)}` }), {
      error: (iss) =>
        iss.input === undefined
          ? `servers needs ${field}, a list such as [1, 2]`
          : `${field} must be a list of numbers, got ${JSON.stringify(iss.input)}`,
    }),
  );

/** The `servers` field as written: speeds (list or "1,2"), fractions (default equal), sampling (default uniform). */
export const serversSchema = onFirstTouch(() =>
  z
    .object(
      {
        speeds: numberList('speeds'),
        fractions: numberList('fractions').optional(),
        sampling: z
          .enum(SERVER_SAMPLINGS, {
            error: (iss) => `unknown server sampling ${JSON.stringify(iss.input)}; expected one of: uniform, speed`,
          })
          .default('uniform'),
      },
      {
        // an unknown field: unknownKeyMessage (the parse's error map) names it and the allowed ones
        error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'servers must be an object { speeds, fractions?, sampling? }'),
      },
    )
    .strict()
    .transform((s): ServerClasses => ({
      speeds: s.speeds,
      fractions: s.fractions ?? s.speeds.map(() => 1 / s.speeds.length),
      sampling: s.sampling,
    })),
);

/** Class c (0-based) in words, 1-based: "class 1 (speed 1, fraction 0.5)". */
export function describeClass(servers: ServerClasses, c: number): string {
  return `class ${c + 1} (speed ${servers.speeds[c]}, fraction ${servers.fractions[c]})`;
}

/**
 * Checks the classes: C ≥ 1 (≤ MAX_SERVER_CLASSES), speeds finite > 0, fractions finite in (0, 1], the same length,
 * Σ f = 1 within FRACTION_SUM_TOLERANCE, and speed-weighted sampling only with distinct speeds (else it is uniform).
 * @throws {InvalidModelError} one line naming the problem.
 */
export function checkServerClasses(servers: ServerClasses): void {
  const { speeds, fractions } = servers;
  if (speeds.length === 0) throw new InvalidModelError('speeds must list at least one class speed');
  if (speeds.length > MAX_SERVER_CLASSES)
    throw new InvalidModelError(`at most ${MAX_SERVER_CLASSES} server classes, got ${speeds.length} speeds`);
  if (fractions.length !== speeds.length)
    throw new InvalidModelError(`speeds and fractions differ in length: ${speeds.length} speeds, ${fractions.length} fractions`);
  speeds.forEach((s, c) => {
    if (!(Number.isFinite(s) && s > 0)) throw new InvalidModelError(`speed of class ${c + 1} must be a finite number > 0, got ${s}`);
  });
  fractions.forEach((f, c) => {
    if (!(Number.isFinite(f) && f > 0 && f <= 1)) throw new InvalidModelError(`fraction of class ${c + 1} must lie in (0, 1], got ${f}`);
  });
  const sum = fractions.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > FRACTION_SUM_TOLERANCE)
    throw new InvalidModelError(`fractions must sum to 1, got ${fractions.join(' + ')} = ${sum}`);
  // p_c = f_c μ_c / Σ f μ is f_c when every μ_c is the same: a setting with no effect is refused, not dropped
  if (servers.sampling === 'speed' && speeds.every((s) => s === speeds[0]))
    throw new InvalidModelError(
      `server sampling speed has no effect when every class has speed ${speeds[0]} (speed-weighted draws are then uniform): drop it or give distinct speeds`,
    );
}

/** Capacity per server Σ f_c μ_c (jobs of mean size 1 per time unit). */
export function capacity(servers: ServerClasses | undefined): number {
  if (servers === undefined) return 1;
  let c = 0;
  for (let k = 0; k < servers.speeds.length; k++) c += servers.fractions[k] * servers.speeds[k];
  return c;
}

/** p_c: the probability that one sampled server is of class c (uniform: f_c; speed: f_c μ_c / Σ f μ). */
export function classSamplingProbabilities(servers: ServerClasses): number[] {
  switch (servers.sampling) {
    case 'uniform':
      return [...servers.fractions];
    case 'speed': {
      const cap = capacity(servers);
      return servers.fractions.map((f, c) => (f * servers.speeds[c]) / cap);
    }
    default: {
      const never: never = servers.sampling;
      throw new InvalidModelError(`unknown server sampling ${String(never)}`);
    }
  }
}

/**
 * The per-class stability check (module comment): every set A of classes needs λE[S]·(Σ_A p)^d < Σ_A f μ, with d the
 * choices per arrival (1 for a rule that samples one server). The smallest violating set is named.
 * @param work λ·E[S], work arriving per server per time unit. @param d choices per arrival.
 * @throws {UnstableModelError} one line naming the class (or classes) and both sides of the inequality.
 */
export function requireStableClasses(servers: ServerClasses, work: number, d: number, rule: string): void {
  const C = servers.speeds.length;
  const p = classSamplingProbabilities(servers);
  let worst: { mask: number; size: number } | undefined;
  for (let mask = 1; mask < 1 << C; mask++) {
    let pA = 0;
    let capA = 0;
    let size = 0;
    for (let c = 0; c < C; c++)
      if (mask & (1 << c)) {
        pA += p[c];
        capA += servers.fractions[c] * servers.speeds[c];
        size++;
      }
    const inflow = work * (mask === (1 << C) - 1 ? 1 : Math.pow(pA, d));
    if (!(inflow < capA) && (worst === undefined || size < worst.size)) worst = { mask, size };
  }
  if (worst === undefined) return;
  const members = Array.from({ length: C }, (_, c) => c).filter((c) => worst.mask & (1 << c));
  if (members.length === C) {
    throw new UnstableModelError(
      `unstable load: ρ = λ·E[S]/Σ f·speed = ${work}/${capacity(servers)} = ${short(work / capacity(servers))} ≥ 1; the queues grow without bound`,
    );
  }
  const pA = members.reduce((a, c) => a + p[c], 0);
  const capA = members.reduce((a, c) => a + servers.fractions[c] * servers.speeds[c], 0);
  const names = members.map((c) => describeClass(servers, c)).join(' and ');
  const share = d === 1 ? `${pA}` : `${pA}^${d}`;
  throw new UnstableModelError(
    `unstable ${names}: ${rule} with ${servers.sampling} sampling sends ${members.length === 1 ? 'it' : 'them'} at least λ·E[S]·${share} = ${short(work * Math.pow(pA, d))} ≥ ${members.length === 1 ? 'its' : 'their'} capacity Σ f·speed = ${short(capA)}; the queues grow without bound`,
  );
}

/** A ratio for a message, without float noise: 6 significant digits (1.6/1.5 → 1.06667, not 1.0666666666666667). */
const short = (x: number): number => Number(x.toPrecision(6));

/** Whether the classes are the homogeneous model (one class of speed 1). */
export function isHomogeneous(servers: ServerClasses | undefined): boolean {
  return servers === undefined || (servers.speeds.length === 1 && servers.speeds[0] === 1);
}
